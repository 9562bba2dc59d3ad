/**
 * A session created by a run that stored nothing (interrupted in its
 * beforeRun hooks) is removed when closed; one that received anything, or
 * one opened to be continued, is kept whatever it holds.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { dirname } from "node:path";
import { createSession, openSession, tempHome } from "./helpers.ts";

describe("closeDiscardingUnused", () => {
  let t: ReturnType<typeof tempHome>;
  beforeEach(() => (t = tempHome()));
  afterEach(() => t.dispose());
  const create = () => createSession({ home: t.home, workdir: t.workdir, agent: "coder", model: "p/a" });

  test("a created session that received nothing is removed, with its lock", () => {
    const s = create();
    expect(existsSync(s.path)).toBe(true);
    expect(s.closeDiscardingUnused()).toBe(true);
    expect(existsSync(s.path)).toBe(false);
    expect(readdirSync(dirname(s.path)).filter((name) => name.startsWith(s.id))).toEqual([]);
  });

  test("a created session that received any entry is kept", () => {
    const withMessage = create();
    withMessage.appendMessage({ role: "user", blocks: [{ type: "text", text: "hi" }] });
    expect(withMessage.closeDiscardingUnused()).toBe(false);
    expect(existsSync(withMessage.path)).toBe(true);
    const withTitle = create();
    withTitle.appendTitle("named");
    expect(withTitle.closeDiscardingUnused()).toBe(false);
    expect(existsSync(withTitle.path)).toBe(true);
  });

  test("a session opened to be continued is kept even when it holds only its header", () => {
    const made = create();
    made.close();
    const opened = openSession({ home: t.home, id: made.id });
    expect(opened.closeDiscardingUnused()).toBe(false);
    expect(existsSync(made.path)).toBe(true);
  });

  test("closing twice removes nothing more and does not throw", () => {
    const s = create();
    s.close();
    expect(s.closeDiscardingUnused()).toBe(false);
    expect(existsSync(s.path)).toBe(true);
  });
});
