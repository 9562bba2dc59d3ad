import { describe, expect, test } from "bun:test";
import { parseSkill } from "../../src/skills/index.ts";

const DIR = "/home/ana/.rienda/skills/pdf";
const FILE = `${DIR}/SKILL.md`;

function problems(text: string, folder = "pdf"): string[] {
  try {
    parseSkill(folder, DIR, FILE, text);
  } catch (error) {
    return (error as Error).message.split("\n");
  }
  throw new Error("expected the skill to be refused");
}

describe("parseSkill", () => {
  test("reads every key of the Agent Skills format", () => {
    const skill = parseSkill(
      "pdf",
      DIR,
      FILE,
      [
        "---",
        "name: pdf",
        "description: Extracts text from PDF files. Use when a PDF is involved.",
        "license: Apache-2.0",
        "compatibility: Requires pdftotext",
        "metadata:",
        "  author: example-org",
        '  version: "1.0"',
        "  build: 7",
        "allowed-tools: Bash(pdftotext:*) Read",
        "---",
        "",
        "# PDF",
        "Run scripts/extract.sh.",
        "",
      ].join("\n"),
    );
    expect(skill).toEqual({
      name: "pdf",
      description: "Extracts text from PDF files. Use when a PDF is involved.",
      dir: DIR,
      file: FILE,
      body: "# PDF\nRun scripts/extract.sh.",
      license: "Apache-2.0",
      compatibility: "Requires pdftotext",
      metadata: { author: "example-org", version: "1.0", build: "7" },
      allowedTools: ["Bash(pdftotext:*)", "Read"],
      ignoredKeys: [],
    });
  });

  test("keys of Claude Code's own skills are accepted and listed as ignored; any other unknown key is refused", () => {
    const text =
      "---\nname: pdf\ndescription: d\nargument-hint: '[file]'\ndisable-model-invocation: true\nmodel: haiku\nversion: 1.2.0\n---\nbody\n";
    expect(parseSkill("pdf", DIR, FILE, text).ignoredKeys).toEqual([
      "argument-hint",
      "disable-model-invocation",
      "model",
      "version",
    ]);
    expect(problems("---\nname: pdf\ndescription: d\nmodle: haiku\n---\n")).toEqual([
      `${FILE}: unknown key "modle" in the frontmatter (known keys: name, description, license, compatibility, metadata, allowed-tools)`,
    ]);
  });

  test("allowed-tools may be a list, and the optional keys may be absent", () => {
    const skill = parseSkill(
      "pdf",
      DIR,
      FILE,
      "---\nname: pdf\ndescription: d\nallowed-tools:\n  - Read\n  - Grep\n---\n",
    );
    expect(skill.allowedTools).toEqual(["Read", "Grep"]);
    expect(skill.metadata).toEqual({});
    expect(skill.body).toBe("");
    expect("license" in skill).toBe(false);
  });

  test("the name must follow the rule and equal the folder's name", () => {
    expect(problems("---\nname: PDF\ndescription: d\n---\n")).toEqual([
      `${FILE}: name: "PDF" is not a valid skill name (1 to 64 lowercase letters and digits, with single hyphens between them)`,
    ]);
    expect(problems("---\nname: pdf--tools\ndescription: d\n---\n", "pdf--tools")[0]).toContain(
      '"pdf--tools" is not a valid skill name',
    );
    expect(problems("---\nname: -pdf\ndescription: d\n---\n", "-pdf")[0]).toContain("is not a valid skill name");
    expect(problems(`---\nname: ${"a".repeat(65)}\ndescription: d\n---\n`, "a".repeat(65))[0]).toContain(
      "is not a valid skill name",
    );
    expect(problems("---\nname: pdf-tools\ndescription: d\n---\n")).toEqual([
      `${FILE}: name: "pdf-tools" must equal the folder's name "pdf"`,
    ]);
  });

  test("reports every problem at once: unknown keys, missing name, long description, bad metadata", () => {
    const text = [
      "---",
      "description: " + "x".repeat(1025),
      "temperature: 1",
      "metadata:",
      "  tags: [a, b]",
      "compatibility: ''",
      "allowed-tools: 3",
      "---",
      "",
    ].join("\n");
    expect(problems(text)).toEqual([
      `${FILE}: unknown key "temperature" in the frontmatter (known keys: name, description, license, compatibility, metadata, allowed-tools)`,
      `${FILE}: missing "name" (the skill's name, equal to its folder's: "pdf")`,
      `${FILE}: description: must be at most 1024 characters (it has 1025)`,
      `${FILE}: compatibility: must be 1 to 500 characters (it has 0)`,
      `${FILE}: metadata.tags: must be text, not a list`,
      `${FILE}: allowed-tools: must be a space-separated string or a list of tool names, not a number (3)`,
    ]);
  });

  test("a description of exactly 1024 characters (counted as characters, not bytes) is accepted", () => {
    const skill = parseSkill("pdf", DIR, FILE, `---\nname: pdf\ndescription: ${"é".repeat(1024)}\n---\n`);
    expect([...skill.description].length).toBe(1024);
  });

  test("layout and YAML problems name the file and the line", () => {
    expect(problems("# just markdown\n")).toEqual([
      `${FILE}: must start with a "---" line, then the YAML frontmatter (name, description), a closing "---" line and the instructions`,
    ]);
    expect(problems("---\nname: pdf\nname: pdf\ndescription: d\n---\n")).toEqual([
      `${FILE}: line 3, column 1: invalid frontmatter: duplicate key "name"`,
    ]);
    expect(problems("---\n---\n")).toEqual([
      `${FILE}: the frontmatter is empty; "name" and "description" are required`,
    ]);
    expect(problems('---\nname: pdf\ndescription: ""\n---\n')).toEqual([`${FILE}: description: must not be empty`]);
  });
});
