import { describe, expect, test } from "bun:test";
import { formatDelay, PlainPrinter } from "../../src/ui/plain-printer.ts";

describe("formatDelay", () => {
  test("every wait reads in seconds with one decimal", () => {
    expect([0, 40, 599, 600, 1000, 1949, 8000, 61_000].map(formatDelay)).toEqual(["0.0s", "0.0s", "0.6s", "0.6s", "1.0s", "1.9s", "8.0s", "61.0s"]);
  });
});

describe("PlainPrinter", () => {
  test("a retry line names the wait as cli.md shows it", () => {
    let err = "";
    const sink = { write: (t: string) => void (err += t) };
    const printer = new PlainPrinter({ write: () => {} }, sink);
    printer.event({ type: "retry", attempt: 1, delayMs: 599, message: "HTTP 503: busy" });
    expect(err).toBe("transient error, retrying in 0.6s: HTTP 503: busy\n");
  });
});
