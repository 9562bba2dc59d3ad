import { expect, test } from "bun:test";
import { BoundedText } from "../../src/runtime/host/bounded-text.ts";

test("keeps everything within the limit", () => {
  const t = new BoundedText(10);
  for (const chunk of ["abc", "def", "ghij"]) t.push(chunk);
  expect(t.kept()).toEqual({ text: "abcdefghij" });
});

test("past the limit keeps the first and the last half, and says where and how much was cut", () => {
  const t = new BoundedText(10);
  for (let i = 0; i < 100; i++) t.push(String(i % 10).repeat(7));
  const kept = t.kept();
  expect(kept.text).toBe("00000" + "99999");
  expect(kept.cut).toEqual({ at: 5, dropped: 700 - 10 });
});

test("never splits a surrogate pair at either end of the cut", () => {
  const t = new BoundedText(4);
  t.push("a😀" + "x".repeat(20) + "😀b");
  const kept = t.kept();
  expect(kept.text).toBe("ab");
  expect(kept.text.length + kept.cut!.dropped).toBe(("a😀" + "x".repeat(20) + "😀b").length);
});

test("no limit keeps everything", () => {
  const t = new BoundedText(Number.POSITIVE_INFINITY);
  t.push("x".repeat(100_000));
  expect(t.kept().text.length).toBe(100_000);
});
