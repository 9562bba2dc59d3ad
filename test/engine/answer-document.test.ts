import { expect, test } from "bun:test";
import { parseAnswerDocument } from "../../src/engine/answer-document.ts";

test("the whole text, when it is JSON", () => {
  expect(parseAnswerDocument(' {"a":1}\n')).toEqual({ ok: true, value: { a: 1 } });
});

test("the last fenced block that parses, whatever surrounds it", () => {
  expect(parseAnswerDocument('Sure.\n\n```json\n{"a":1}\n```')).toEqual({ ok: true, value: { a: 1 } });
  expect(parseAnswerDocument('```json\n{"a":1}\n```\n~~~\n[2]\n~~~\nDone.')).toEqual({ ok: true, value: [2] });
  expect(parseAnswerDocument('```json\n{"a":1}\n```\n```\nnope\n```')).toEqual({ ok: true, value: { a: 1 } });
  expect(parseAnswerDocument('  ```JSON\n{"a":1}```')).toEqual({ ok: true, value: { a: 1 } });
});

test("why nothing was taken", () => {
  expect(parseAnswerDocument("   ")).toEqual({ ok: false, reason: "the answer is empty" });
  const none = parseAnswerDocument("no json here");
  expect(none.ok).toBe(false);
  const bad = parseAnswerDocument("x\n```json\n{a}\n```");
  expect(bad.ok ? "" : bad.reason).toStartWith("no fenced block of the answer is JSON (the last: ");
});
