import { describe, expect, test } from "bun:test";
import { durationText, parseDuration } from "../../src/limits/index.ts";

describe("parseDuration", () => {
  test("units, combinations and plain seconds", () => {
    const ms = (value: unknown) => {
      const read = parseDuration(value);
      return read.ok ? read.ms : read.problem;
    };
    expect(ms("90s")).toBe(90_000);
    expect(ms("10m")).toBe(600_000);
    expect(ms("1h30m")).toBe(5_400_000);
    expect(ms("500ms")).toBe(500);
    expect(ms("1.5s")).toBe(1500);
    expect(ms(" 2m ")).toBe(120_000);
    expect(ms(45)).toBe(45_000);
    expect(ms("45")).toBe(45_000);
  });

  test("refuses what is not a positive duration, saying what is", () => {
    for (const bad of ["", "soon", "10 m", "5d", "-5s", "1h-", "0s", 0, -1, Number.NaN, true, null]) {
      const read = parseDuration(bad);
      expect(read.ok).toBe(false);
      if (!read.ok) expect(read.problem).toContain("90s");
    }
  });
});

describe("durationText", () => {
  test("writes a duration the way a person would", () => {
    expect(durationText(90_000)).toBe("1m30s");
    expect(durationText(600_000)).toBe("10m");
    expect(durationText(5_400_000)).toBe("1h30m");
    expect(durationText(250)).toBe("250ms");
    expect(durationText(1500)).toBe("1s500ms");
  });
});
