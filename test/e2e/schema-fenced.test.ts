/**
 * `--schema` and answers written as text (docs/pipelines.md, "Data out"):
 * a sentence before a fenced JSON block, or a remark after it, costs no
 * repair turn: the last fenced block that parses is the document.
 */
import { afterEach, expect, test } from "bun:test";
import { scenario, type Scenario } from "../support/scenario.ts";
import type { WireProtocol } from "../support/provider-server.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

const SCHEMA = JSON.stringify({
  type: "object",
  properties: { name: { type: "string" }, count: { type: "integer" } },
  required: ["name", "count"],
});

/** Chat Completions to a local server asks through a final tool; Responses natively. */
const WAYS: { protocol: WireProtocol; way: string }[] = [
  { protocol: "openai_chat_completions", way: "asked as a tool, answered as text" },
  { protocol: "openai_responses", way: "asked natively" },
];

for (const { protocol, way } of WAYS) {
  test(`prose, then a fenced block: the block is the answer, in one request (${way})`, async () => {
    s = await scenario({ protocol });
    s.server.script({ text: 'Sure.\n\n```json\n{"name":"t","count":2}\n```' });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "count", "--schema", SCHEMA]);
    expect(r.stderr).not.toContain("rienda:");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{"name":"t","count":2}\n');
    expect(s.server.requests).toHaveLength(1);
  });
}

test("of several fenced blocks the last that parses is taken; a remark after it changes nothing", async () => {
  s = await scenario();
  s.server.script({
    text: 'A first try:\n```json\n{"name":"draft","count":1}\n```\nCorrected:\n```\n{"name":"final","count":3}\n```\n```text\nnot json\n```\nHope this helps.',
  });
  const r = await s.inst.run(["run", "-a", "coder", "-p", "count", "--schema", SCHEMA]);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe('{"name":"final","count":3}\n');
  expect(s.server.requests).toHaveLength(1);
});

test("a fenced block that does not parse still gets the repair turn, told why", async () => {
  s = await scenario({ protocol: "openai_responses" });
  s.server.script({ text: 'Here:\n```json\n{"name": "t", count: 2}\n```' }, { text: '{"name":"t","count":2}' });
  const r = await s.inst.run(["run", "-a", "coder", "-p", "count", "--schema", SCHEMA]);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe('{"name":"t","count":2}\n');
  expect(s.server.requests).toHaveLength(2);
  expect(JSON.stringify(s.server.requests[1]!.body)).toContain("no fenced block of the answer is JSON");
});
