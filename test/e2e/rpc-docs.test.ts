/**
 * docs/rpc.md's example client is examples/rpc-client.mjs, word for word,
 * and it works: run with Node against the binary, it holds a two-prompt
 * conversation with a confirmation, reads its stats and exits 0.
 */
import { afterEach, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { markedBlock } from "../support/doc-blocks.ts";
import { BINARY } from "../support/instance.ts";
import { scenario, type Scenario } from "../support/scenario.ts";

const CLIENT = resolve(import.meta.dir, "../../examples/rpc-client.mjs");
let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

test("rpc-client: the block in docs/rpc.md is the example file", () => {
  expect(markedBlock("docs/rpc.md", "test/e2e/rpc-docs.test.ts", "rpc-client")).toBe(readFileSync(CLIENT, "utf8"));
});

test("the example client holds a conversation with a confirmation over rienda rpc", async () => {
  s = await scenario({ agentFrontmatter: "tools: [publish]" });
  s.inst.tool(
    "publish",
    `module.exports = { description: "Publishes.", parameters: { type: "object", properties: {} }, execute(ctx) { return ctx.confirm({ title: "Publish", body: "sure?" }) ? "pushed" : "cancelled"; } };\n`,
  );
  s.server.script(
    { toolCalls: [{ id: "c1", name: "publish", arguments: {} }] },
    { text: "Published." },
    { text: "I pushed the branch." },
  );
  const child = spawn("node", [CLIENT, "coder", "publish the branch", "what did you do?"], {
    cwd: s.inst.workspace,
    env: s.inst.env({ RIENDA: BINARY }),
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const code = await new Promise<number | null>((done) => child.on("close", done));
  // Three answers of the scripted model's 12 tokens in and 7 out each.
  expect(stderr).toBe("[tool publish]\n[Publish? yes]\n[3 answers, 36 tokens in, 21 out]\n");
  expect(stdout).toBe("Published.\nI pushed the branch.\n");
  expect(code).toBe(0);
  expect(JSON.stringify(s.server.requests[1]!.body)).toContain("pushed");
});
