import { describe, expect, test } from "bun:test";
import { createIdGenerator, idTime } from "../../src/sessions/index.ts";

describe("ids", () => {
  test("are 26 characters of lowercase Crockford base32 encoding the creation time", () => {
    const at = Date.UTC(2025, 5, 1, 12, 0, 0, 123);
    const id = createIdGenerator({ now: () => at })();
    expect(id).toMatch(/^[0-9a-hjkmnp-tv-z]{26}$/);
    expect(idTime(id)).toBe(at);
  });

  test("sort by creation time as plain strings", () => {
    const times = [Date.UTC(2024, 0, 1), Date.UTC(2024, 0, 1, 0, 0, 0, 1), Date.UTC(2025, 6, 7), Date.UTC(2031, 1, 1)];
    let i = 0;
    const gen = createIdGenerator({ now: () => times[i++]! });
    const ids = times.map(() => gen());
    expect([...ids].sort()).toEqual(ids);
    expect(ids.map((id) => idTime(id))).toEqual(times);
  });

  test("stay strictly increasing within one millisecond and when the clock goes back", () => {
    const clock = [5000, 5000, 5000, 4000, 5000, 6000];
    let i = 0;
    const gen = createIdGenerator({ now: () => clock[i++]!, random: (n) => Array(n).fill(31) });
    const ids = clock.map(() => gen());
    for (let k = 1; k < ids.length; k++) expect(ids[k]! > ids[k - 1]!).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("differ between generators in the same millisecond", () => {
    const a = createIdGenerator({ now: () => 1 })();
    const b = createIdGenerator({ now: () => 1 })();
    expect(a).not.toBe(b);
    expect(a.slice(0, 10)).toBe(b.slice(0, 10));
  });

  test("idTime refuses strings of another format", () => {
    expect(idTime("not-an-id")).toBeUndefined();
    expect(idTime("01HZZZZZZZZZZZZZZZZZZZZZZZ")).toBeUndefined();
  });
});
