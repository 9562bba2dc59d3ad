import { describe, expect, test } from "bun:test";
import { ABORTED, raceAbort } from "../src/abort-race.ts";

describe("raceAbort", () => {
  test("the work's value when it finishes first, its rejection as it is", async () => {
    expect(await raceAbort(Promise.resolve(7), new AbortController().signal)).toBe(7);
    await expect(raceAbort(Promise.reject(new Error("broke")), new AbortController().signal)).rejects.toThrow("broke");
  });

  test("ABORTED as soon as the signal aborts, and a later rejection is swallowed", async () => {
    const controller = new AbortController();
    let fail!: (error: Error) => void;
    const work = new Promise<number>((_, reject) => (fail = reject));
    const raced = raceAbort(work, controller.signal);
    controller.abort();
    expect(await raced).toBe(ABORTED);
    fail(new Error("too late"));
    await Bun.sleep(0);
  });

  test("an already aborted signal wins at once", async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await raceAbort(new Promise(() => undefined), controller.signal)).toBe(ABORTED);
  });
});
