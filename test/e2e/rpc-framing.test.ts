/**
 * `rienda rpc` frames lines on LF alone (docs/rpc.md): U+2028 and U+2029
 * raw inside a JSON string (as JSON.stringify and Python's
 * `ensure_ascii=False` write them) stay in their command, and Rienda writes
 * them escaped, so no reader's line splitting cuts a line Rienda wrote. The
 * docs' example client holds a conversation with such a prompt under Node
 * and under Bun.
 */
import { afterEach, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { BINARY } from "../support/instance.ts";
import { RpcDriver } from "../support/rpc-driver.ts";
import { scenario, type Scenario } from "../support/scenario.ts";

const CLIENT = resolve(import.meta.dir, "../../examples/rpc-client.mjs");
const LS = "\u2028";
const PS = "\u2029";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

/** The user text of Chat Completions request `index`. */
const userText = (index: number): unknown =>
  (s!.server.requests[index]!.body as { messages: { role: string; content: unknown }[] }).messages
    .filter((m) => m.role === "user")
    .pop()?.content;

test("a command with raw U+2028 and U+2029 in its text is one command; what Rienda writes has them escaped", async () => {
  s = await scenario();
  s.server.script({ text: `first${LS}second${PS}third` });
  const rpc = new RpcDriver(s.inst, ["-a", "coder"]);
  let raw = "";
  rpc.child.stdout.on("data", (chunk: string) => (raw += chunk));
  try {
    await rpc.waitFor((l) => l.type === "ready");
    const line = JSON.stringify({ id: "p", type: "prompt", text: `one${LS}two${PS}three` });
    expect(line).toContain(LS);
    rpc.send(line);
    expect(await rpc.response("p")).toMatchObject({ ok: true });
    const end = await rpc.runEnd("p");
    expect(end).toMatchObject({ reason: "end_turn" });
    expect(rpc.lines.filter((l) => l.type === "response")).toHaveLength(1);
    expect(userText(0)).toBe(`one${LS}two${PS}three`);
    expect(rpc.lines.find((l) => l.type === "message_end")).toMatchObject({ text: `first${LS}second${PS}third` });
    expect(raw).not.toContain(LS);
    expect(raw).not.toContain(PS);
    expect(raw).toContain("first\\u2028second\\u2029third");
  } finally {
    rpc.child.kill("SIGKILL");
  }
});

test("rienda run --json writes U+2028 and U+2029 escaped too", async () => {
  s = await scenario();
  s.server.script({ text: `a${LS}b` });
  const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--json"]);
  expect(r.code).toBe(0);
  expect(r.stdout).not.toContain(LS);
  expect(r.stdout).toContain("a\\u2028b");
});

for (const [runtime, command] of [
  ["Node", "node"],
  ["Bun", process.execPath],
] as const) {
  test(`the docs' example client, under ${runtime}, with a U+2028 prompt`, async () => {
    s = await scenario();
    s.server.script({ text: `line one${LS}line two` }, { text: "done" });
    const child = spawn(command, [CLIENT, "coder", `first${LS}prompt`, "second"], {
      cwd: s.inst.workspace,
      env: s.inst.env({ RIENDA: BINARY }),
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    const code = await new Promise<number | null>((done) => child.on("close", done));
    clearTimeout(timer);
    // Only the closing line of stats: two answers of the scripted model's 12 tokens in and 7 out.
    expect(stderr).toBe("[2 answers, 24 tokens in, 14 out]\n");
    expect(stdout).toBe(`line one${LS}line two\ndone\n`);
    expect(code).toBe(0);
    expect(userText(0)).toBe(`first${LS}prompt`);
  });
}
