import { describe, expect, test } from "bun:test";
import { closestName, didYouMean } from "../src/values.ts";

describe("closestName", () => {
  const tools = ["shell", "word-count", "json-field", "release-tag"];

  test("finds a name a typo or two away, ignoring case", () => {
    expect(closestName("wrod-count", tools)).toBe("word-count");
    expect(closestName("shel", tools)).toBe("shell");
    expect(closestName("JSON-field", tools)).toBe("json-field");
    expect(closestName("gaurd", ["date", "guard", "redact"])).toBe("guard");
  });

  test("suggests nothing for a name that is known, far away, or short and different", () => {
    expect(closestName("shell", tools)).toBeUndefined();
    expect(closestName("ghost", tools)).toBeUndefined();
    expect(closestName("ab", ["cd", "xy"])).toBeUndefined();
    expect(closestName("x", [])).toBeUndefined();
  });

  test("a different number is another thing, not a typo", () => {
    expect(closestName("gpt-5", ["gpt-4o", "o3"])).toBeUndefined();
    expect(closestName("o1", ["o3"])).toBeUndefined();
    expect(closestName("gtp-4o", ["gpt-4o", "o3"])).toBe("gpt-4o");
  });

  test("didYouMean is the start of a parenthesised hint, or nothing", () => {
    expect(didYouMean("modles", ["models"])).toBe('did you mean "models"? ');
    expect(didYouMean("zzz", ["models"])).toBe("");
  });
});
