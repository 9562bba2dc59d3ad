import { describe, expect, test } from "bun:test";
import { assertKnownFlags, readCommandLine } from "../../../src/cli/shared/strict-args.ts";

const args = {
  name: { type: "positional", required: false },
  prompt: { type: "string", alias: "p" },
  session: { type: "string", alias: "s" },
  json: { type: "boolean" },
  "auto-approve": { type: "boolean", alias: "y" },
} as const;

const read = (...raw: string[]) => assertKnownFlags(raw, args, "rienda run");
const refusal = (...raw: string[]): string => {
  try {
    read(...raw);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("not refused");
};

describe("assertKnownFlags", () => {
  test("values in every accepted form", () => {
    expect(read("-p", "hi").values.prompt).toBe("hi");
    expect(read("--prompt", "hi").values.prompt).toBe("hi");
    expect(read("--prompt=-x").values.prompt).toBe("-x");
    expect(read("-p=x").values.prompt).toBe("x");
    expect(read("-p=a=b").values.prompt).toBe("a=b");
    expect(read("-p", "--", "-x").values.prompt).toBe("-x");
    expect(read("-p", "-").values.prompt).toBe("-");
    expect(read("--json", "-y").values).toEqual({ json: true, "auto-approve": true });
    expect(read("--no-json").values.json).toBe(false);
  });

  test("words: as many as declared, after -- too", () => {
    expect(read("tool").positionals).toEqual(["tool"]);
    expect(read("--", "-tool").positionals).toEqual(["-tool"]);
    expect(refusal("a", "b")).toBe('run: unexpected argument "b" (see rienda run --help)');
    expect(refusal("a", "-p", "count", "the", "words")).toBe(
      'run: unexpected argument "the" (a prompt of several words needs quotes: -p "count the words")',
    );
  });

  test("refusals name the token and say what to do", () => {
    expect(refusal("-x")).toBe("run: unknown option -x (see rienda run --help)");
    expect(refusal("--bogus=1")).toBe("run: unknown option --bogus (see rienda run --help)");
    expect(refusal("-p")).toBe(
      'run: option -p needs a value (for a value that starts with "-", write --prompt=-x or -p -- -x)',
    );
    expect(refusal("-p", "-q")).toBe(
      'run: option -p needs a value (for a value that starts with "-", write --prompt=-q or -p -- -q)',
    );
    expect(refusal("-p", "--json")).toBe(
      'run: option -p needs a value (for a value that starts with "-", write --prompt=-x or -p -- -x)',
    );
    expect(refusal("-p", "--")).toBe("run: option -p needs a value after --");
    expect(refusal("--json=yes")).toBe("run: option --json takes no value");
    expect(refusal("-p", "a", "-p", "b")).toBe("run: option -p given twice (see rienda run --help)");
    expect(refusal("-y", "--auto-approve")).toBe(
      "run: options -y and --auto-approve given twice (see rienda run --help)",
    );
  });

  test("an empty value is refused, never read as not given; an empty prompt is left to its own message", () => {
    expect(refusal("-s", "")).toBe("run: option -s got an empty value (an unset variable in a script?)");
    expect(refusal("--session=")).toBe("run: option --session got an empty value (an unset variable in a script?)");
    expect(read("-p", "").values.prompt).toBe("");
  });

  test("a value with whitespace that starts with - is the value (a prompt read from a file), never a flag", () => {
    expect(read("-p", "- first item\n- second").values.prompt).toBe("- first item\n- second");
    expect(read("--prompt", "--- review this").values.prompt).toBe("--- review this");
  });

  test("the bare program name prefixes nothing", () => {
    expect(() => assertKnownFlags(["-x"], {}, "rienda")).toThrow("unknown option -x (see rienda --help)");
  });
});

describe("readCommandLine", () => {
  test("a refused line is still read to its end: the first problem is kept, later flags are seen", () => {
    const line = readCommandLine(["-x", "-p", "--json", "--bogus", "--json=1"], args, "rienda run");
    expect(line.problem?.message).toBe("run: unknown option -x (see rienda run --help)");
    expect(line.values.json).toBe(true);
    expect(line.values.prompt).toBeUndefined();
  });

  test("a line without a problem has none", () => {
    expect(readCommandLine(["-p", "hi"], args, "rienda run")).toEqual({ values: { prompt: "hi" }, positionals: [] });
  });
});
