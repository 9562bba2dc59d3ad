import { afterEach, describe, expect, test } from "bun:test";
import { UNDER_DENO } from "../support/instance.ts";
import { PROTOCOLS, scenario, toolNamesOf, toolResultsOf, type Scenario } from "../support/scenario.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

const WORD_COUNT = `module.exports = {
  description: "Counts the words of a file in the workspace.",
  parameters: {
    type: "object",
    properties: {
      path: { type: "string", description: "Path relative to the workspace." },
    },
    required: ["path"],
    additionalProperties: false,
  },
  execute: function(ctx, args) {
    const text = ctx.file.read(args.path);
    return String(text.trim().split(/\\s+/).length);
  },
};
`;

const PUBLISH = `module.exports = {
  description: "Publishes the current branch.",
  parameters: { type: "object", properties: {}, additionalProperties: false },
  execute: function(ctx) {
    if (!ctx.confirm({ title: "Publish", body: "Push the current branch?" })) {
      return { text: "cancelled by the user", isError: true };
    }
    return "pushed";
  },
};
`;

describe("rienda run with tools", () => {
  for (const protocol of PROTOCOLS) {
    test(`calls the word-count tool of tools.md and sends its result back (${protocol})`, async () => {
      s = await scenario({ protocol, agentFrontmatter: "tools:\n  - word-count" });
      s.inst.tool("word-count", WORD_COUNT);
      s.inst.file("notes.txt", "one two three\nfour\n");
      s.server.script(
        { toolCalls: [{ id: "call_1", name: "word-count", arguments: { path: "notes.txt" } }] },
        { text: "notes.txt has 4 words." },
      );
      const r = await s.inst.run(["run", "-a", "coder", "-p", "count the words in notes.txt"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe("notes.txt has 4 words.\n");
      expect(r.stderr).toContain('tool: word-count {"path":"notes.txt"}');
      expect(toolNamesOf(s.server.requests[0]!)).toEqual(["word-count"]);
      expect(toolResultsOf(s.server.requests[1]!)).toEqual(["4"]);
    });
  }

  test("the tool definition carries the description and the parameters verbatim", async () => {
    s = await scenario({ agentFrontmatter: "tools: [word-count]" });
    s.inst.tool("word-count", WORD_COUNT);
    s.server.script({ text: "ok" });
    await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    const tools = (
      s.server.requests[0]!.body as {
        tools: { function: { name: string; description: string; parameters: unknown } }[];
      }
    ).tools;
    expect(tools[0]!.function).toEqual({
      name: "word-count",
      description: "Counts the words of a file in the workspace.",
      parameters: {
        type: "object",
        properties: { path: { type: "string", description: "Path relative to the workspace." } },
        required: ["path"],
        additionalProperties: false,
      },
    });
  });

  test("bad arguments become error results the model reads, and the run goes on", async () => {
    s = await scenario({ agentFrontmatter: "tools: [word-count]" });
    s.inst.tool("word-count", WORD_COUNT);
    s.server.script(
      {
        toolCalls: [
          { id: "a", name: "word-count", rawArguments: "{not json" },
          { id: "b", name: "word-count", arguments: { path: 7 } },
          { id: "c", name: "word-count", rawArguments: "[1,2]" },
          { id: "d", name: "ghost", arguments: {} },
        ],
      },
      { text: "sorry" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    const results = toolResultsOf(s.server.requests[1]!);
    expect(results).toHaveLength(4);
    expect(results[0]).toMatch(/JSON/i);
    expect(results[1]).toContain("path");
    expect(results[2]).toMatch(/object/i);
    expect(results[3]).toBe('unknown tool "ghost"');
    expect(r.stderr).toContain("tool failed:");
  });

  test("a throwing tool fails the call, not the run", async () => {
    s = await scenario({ agentFrontmatter: "tools: [word-count]" });
    s.inst.tool("word-count", WORD_COUNT);
    s.server.script(
      { toolCalls: [{ id: "a", name: "word-count", arguments: { path: "missing.txt" } }] },
      { text: "file missing" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("file missing\n");
    expect(toolResultsOf(s.server.requests[1]!)[0]).toContain("missing.txt");
  });

  test("ctx.confirm answers false without -y and true with it, without a terminal", async () => {
    s = await scenario({ agentFrontmatter: "tools: [publish]" });
    s.inst.tool("publish", PUBLISH);
    s.server.script({ toolCalls: [{ id: "a", name: "publish", arguments: {} }] }, { text: "ok" });
    await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["cancelled by the user"]);
    s.server.script({ toolCalls: [{ id: "a", name: "publish", arguments: {} }] }, { text: "ok" });
    await s.inst.run(["run", "-a", "coder", "-p", "x", "-y"]);
    expect(toolResultsOf(s.server.requests[3]!)).toEqual(["pushed"]);
  });

  test("the shell built-in runs commands and streams their output to stderr", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.server.script(
      { toolCalls: [{ id: "a", name: "shell", arguments: { command: "echo out-line; echo err-line >&2; exit 3" } }] },
      { text: "done" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.stdout).toBe("done\n");
    expect(r.stderr).toContain("out-line");
    expect(r.stderr).toContain("err-line");
    const result = toolResultsOf(s.server.requests[1]!)[0]!;
    expect(result).toContain("out-line");
    expect(result).toContain("stderr:\nerr-line");
    expect(result).toContain("command exited with code 3");
  });

  test("three identical rounds stop the run with a clear error", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    const call = { id: "same", name: "shell", arguments: { command: "echo again" } };
    s.server.script({ toolCalls: [call] }, { toolCalls: [call] }, { toolCalls: [call] }, { text: "never" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("same tool calls");
    expect(s.server.requests).toHaveLength(3);
  });
});

describe("stdout carries only the answer", () => {
  test("process.stdout.write and process.stderr.write of a tool or a hook reach the front end as log lines, never stdout", async () => {
    s = await scenario({ agentFrontmatter: "tools: [noisy]\nhooks: [loud]" });
    s.inst.tool(
      "noisy",
      `module.exports = { description: "d", parameters: { type: "object" }, execute() { process.stdout.write("tool-out\\n"); process.stderr.write(Buffer.from("tool-err")); return "result"; } };`,
    );
    s.inst.hook("loud", `module.exports = { beforeToolExecute() { process.stdout.write("hook-out\\n"); } };`);
    s.server.script({ toolCalls: [{ id: "a", name: "noisy", arguments: {} }] }, { text: "the answer" });
    const plain = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe("the answer\n");
    expect(plain.stderr).toContain("hook-out\n");
    expect(plain.stderr).toContain("tool-out\ntool-err\n");

    s.server.script({ toolCalls: [{ id: "b", name: "noisy", arguments: {} }] }, { text: "the answer" });
    const json = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    const events = json.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; text?: string; stream?: string });
    expect(events.filter((e) => e.type === "tool_output").map((e) => [e.stream, e.text])).toEqual([
      ["log", "tool-out"],
      ["log", "tool-err"],
    ]);
    expect(events.find((e) => e.type === "hook_output")).toMatchObject({ stream: "log", text: "hook-out" });

    const direct = await s.inst.run(["tool", "run", "noisy"]);
    expect(direct).toMatchObject({ code: 0, stdout: "result\n" });
    expect(direct.stderr).toContain("tool-out\ntool-err\n");
  });
});

describe("stdout carries only the answer, whatever a tool writes to descriptor 1", () => {
  test.skipIf(UNDER_DENO)(
    "fs.writeSync(1, …) and fs.writeFileSync(1, …) in a tool reach the log, not stdout, in plain and --json runs",
    async () => {
      s = await scenario({ agentFrontmatter: "tools: [direct]" });
      s.inst.tool(
        "direct",
        `module.exports = { description: "d", parameters: { type: "object" }, execute() { const fs = require("fs"); fs.writeSync(1, "fd-one\\n"); fs.writeFileSync(1, "whole"); return "result"; } };`,
      );
      s.server.script({ toolCalls: [{ id: "a", name: "direct", arguments: {} }] }, { text: "the answer" });
      const plain = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
      expect(plain).toMatchObject({ code: 0, stdout: "the answer\n" });
      expect(plain.stderr).toContain("fd-one\nwhole\n");
      s.server.script({ toolCalls: [{ id: "b", name: "direct", arguments: {} }] }, { text: "the answer" });
      const json = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
      const events = json.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { type: string; text?: string });
      expect(events.filter((e) => e.type === "tool_output").map((e) => e.text)).toEqual(["fd-one", "whole"]);
    },
  );
});

describe("stdout carries only the answer, whatever way a tool reaches process or fs", () => {
  test.skipIf(UNDER_DENO)(
    "process.getBuiltinModule('node:process').stdout and getBuiltinModule('fs').writeSync(1, …) reach the log, in a run and in tool run",
    async () => {
      s = await scenario({ agentFrontmatter: "tools: [builtin]\nhooks: [builtinhook]" });
      s.inst.tool(
        "builtin",
        `module.exports = { description: "d", parameters: { type: "object" }, execute() {
        process.getBuiltinModule("node:process").stdout.write("gbm-process\\n");
        process.getBuiltinModule("process").stderr.write("gbm-stderr\\n");
        process.getBuiltinModule("fs").writeSync(1, "gbm-fs\\n");
        return "result";
      } };`,
      );
      s.inst.hook(
        "builtinhook",
        `module.exports = { beforeToolExecute() { process.getBuiltinModule("node:process").stdout.write("gbm-hook\\n"); } };`,
      );
      // Two tool calls: the first may run in a worker of its own, the next in a realm of the helper.
      s.server.script(
        { toolCalls: [{ id: "a", name: "builtin", arguments: {} }] },
        { toolCalls: [{ id: "b", name: "builtin", arguments: {} }] },
        { text: "the answer" },
      );
      const plain = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
      expect(plain).toMatchObject({ code: 0, stdout: "the answer\n" });
      expect(plain.stderr.split("gbm-process\ngbm-stderr\ngbm-fs\n").length).toBe(3);
      expect(plain.stderr.split("gbm-hook\n").length).toBe(3);
      const direct = await s.inst.run(["tool", "run", "builtin"]);
      expect(direct).toMatchObject({ code: 0, stdout: "result\n" });
      expect(direct.stderr).toContain("gbm-process\ngbm-stderr\ngbm-fs\n");
    },
  );
});

describe("stdout carries only the answer, whatever the commands a tool starts inherit", () => {
  test.skipIf(UNDER_DENO)(
    "a command run with its output inherited (stdio: inherit, [.., 'inherit', ..], descriptor 1) writes to stderr, never into the answer or the JSON events",
    async () => {
      s = await scenario({ agentFrontmatter: "tools: [inherits]" });
      s.inst.tool(
        "inherits",
        `module.exports = { description: "d", parameters: { type: "object" }, execute() {
        const cp = require("node:child_process");
        cp.execSync("echo exec-inherit", { stdio: "inherit" });
        cp.spawnSync("sh", ["-c", "echo spawn-inherit"], { stdio: ["ignore", "inherit", "inherit"] });
        cp.execFileSync("sh", ["-c", "echo fd-one"], { stdio: [0, 1, 2] });
        return "result";
      } };`,
      );
      s.server.script({ toolCalls: [{ id: "a", name: "inherits", arguments: {} }] }, { text: "the answer" });
      const plain = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
      expect(plain).toMatchObject({ code: 0, stdout: "the answer\n" });
      for (const line of ["exec-inherit", "spawn-inherit", "fd-one"]) expect(plain.stderr).toContain(`${line}\n`);
      s.server.script({ toolCalls: [{ id: "b", name: "inherits", arguments: {} }] }, { text: "the answer" });
      const json = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
      expect(json.code).toBe(0);
      for (const line of json.stdout.trim().split("\n")) expect(() => JSON.parse(line)).not.toThrow();
      expect(toolResultsOf(s.server.requests[3]!)).toEqual(["result"]);
    },
  );
});

describe("live output of tools in plain mode", () => {
  test("ctx.log writes whole lines on stderr; process output passes through as it comes", async () => {
    s = await scenario({ agentFrontmatter: "tools: [chatty]" });
    s.inst.tool(
      "chatty",
      `module.exports = { description: "d", parameters: { type: "object" }, execute(ctx) { ctx.log("first"); ctx.log("second\\n"); ctx.system.exec("printf 'no newline'"); return { text: "bad", isError: true }; } };`,
    );
    s.server.script({ toolCalls: [{ id: "a", name: "chatty", arguments: {} }] }, { text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.stderr).toContain("tool: chatty {}\nfirst\nsecond\nno newline\ntool failed: bad\n");
  });
});
