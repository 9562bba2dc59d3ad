/**
 * The protocol owns `rienda rpc`'s real stdout (docs/rpc.md): a tool that
 * writes to /dev/stdout or /proc/self/fd/1, or a process it starts with
 * the stdout it inherits, never puts a line into the protocol stream. Run
 * through real pipes (`rienda rpc | cat`, stderr too): Node's socket pairs
 * cannot be opened by path and would hide the problem.
 */
import { afterEach, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY } from "../support/instance.ts";
import { scenario, type Scenario } from "../support/scenario.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

const LEAKY = `const fs = require("node:fs");
const { spawnSync } = require("node:child_process");
module.exports = {
  description: "Writes to stdout every way it can.",
  parameters: { type: "object", properties: {} },
  execute() {
    for (const path of ["/dev/stdout", "/proc/self/fd/1"]) {
      try { fs.appendFileSync(path, "LEAK " + path + "\\n"); } catch {}
    }
    try { fs.writeSync(1, "LEAK fd 1\\n"); } catch {}
    spawnSync("sh", ["-c", "echo LEAK child; echo LEAK child dev >/dev/stdout"], { stdio: ["ignore", "inherit", "inherit"] });
    return "wrote";
  },
};
`;

test("a tool and its children write to /dev/stdout, /proc/self/fd/1, fd 1: every stdout line is still the protocol's", async () => {
  s = await scenario({ agentFrontmatter: "tools: [leaky, shell]" });
  s.inst.tool("leaky", LEAKY);
  s.server.script(
    {
      toolCalls: [
        { id: "c1", name: "leaky", arguments: {} },
        {
          id: "c2",
          name: "shell",
          arguments: {
            command: "echo LEAK shell > /dev/stdout; echo LEAK shell proc > /proc/self/fd/1; echo shell-ok",
          },
        },
      ],
    },
    { text: "done" },
  );
  const child = spawn("sh", ["-c", '{ "$RIENDA" rpc -a coder -y 2>&1 >&3 | cat > stderr.txt; } 3>&1 | cat'], {
    cwd: s.inst.workspace,
    env: s.inst.env({ RIENDA: BINARY }),
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let sentShutdown = false;
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    stdout += d;
    if (stdout.includes('"type":"ready"') && !stdout.includes('"id":"p"'))
      child.stdin.write(`${JSON.stringify({ id: "p", type: "prompt", text: "go" })}\n`);
    if (stdout.includes('"type":"run_end"') && !sentShutdown) {
      sentShutdown = true;
      child.stdin.write(`${JSON.stringify({ id: "bye", type: "shutdown" })}\n`);
    }
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const code = await new Promise<number | null>((done) => child.on("close", done));
  clearTimeout(timer);
  expect(code).toBe(0);
  const lines = stdout.split("\n").filter((line) => line !== "");
  for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  // No raw line at all: "LEAK" appears only inside the protocol's own JSON (the call's arguments, routed output).
  expect(lines.filter((line) => line.startsWith("LEAK"))).toEqual([]);
  const results = lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((l) => l.type === "tool_result");
  expect(results.map((r) => r.text)).toEqual(["wrote", expect.stringContaining("shell-ok")]);
  // What the tools wrote by path is not lost: it went to stderr (here a pipe too, kept in a file by cat).
  const stderr = readFileSync(join(s.inst.workspace, "stderr.txt"), "utf8");
  expect(stderr).toContain("LEAK /dev/stdout\n");
  expect(stderr).toContain("LEAK /proc/self/fd/1\n");
});
