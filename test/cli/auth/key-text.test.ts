import { describe, expect, test } from "bun:test";
import { checkedKey, keyOfPipedText, keyProblem } from "../../../src/cli/auth/key-text.ts";

describe("a key read from a pipe", () => {
  test("loses one trailing LF or CRLF, and nothing else", () => {
    expect(keyOfPipedText("sk-1\n")).toBe("sk-1");
    expect(keyOfPipedText("sk-1\r\n")).toBe("sk-1");
    expect(keyOfPipedText("sk-1")).toBe("sk-1");
    expect(keyOfPipedText("sk-1\n\n")).toBe("sk-1\n");
  });
});

describe("what may be stored as a key", () => {
  test("one line of printable ASCII is a key", () => {
    expect(keyProblem("sk-ant-api03_AbC.def~=+/")).toBeUndefined();
  });

  test("empty, line breaks, NUL, control characters, non-ASCII and spaces at the ends are refused, named by position", () => {
    expect(keyProblem("")).toBe("is empty");
    expect(keyProblem("ab\ncd")).toBe("holds a line break at character 3 of 5 (one key, on one line)");
    expect(keyProblem("ab\rcd")).toBe("holds a line break at character 3 of 5 (one key, on one line)");
    expect(keyProblem("a\u0000b")).toBe("holds a NUL character at character 2 of 3");
    expect(keyProblem("a\tb")).toBe("holds a control character at character 2 of 3");
    expect(keyProblem("a\u007f")).toBe("holds a control character at character 2 of 2");
    expect(keyProblem("clé")).toBe(
      "holds a character outside ASCII at character 3 of 3, which an HTTP header cannot carry",
    );
    expect(keyProblem(" sk")).toBe("starts or ends with a space (a copy-paste slip?)");
    expect(keyProblem("sk ")).toBe("starts or ends with a space (a copy-paste slip?)");
  });

  test("a refusal names where the key came from and never the key", () => {
    expect(() => checkedKey("secret\nsecond", "the key read from stdin")).toThrow(
      "the key read from stdin holds a line break at character 7 of 13 (one key, on one line); nothing was stored",
    );
    try {
      checkedKey("secret\nsecond", "stdin");
    } catch (error) {
      expect((error as Error).message).not.toContain("secret");
    }
    expect(checkedKey("sk-1", "stdin")).toBe("sk-1");
  });
});
