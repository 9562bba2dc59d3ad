/**
 * The recipes of docs/pipelines.md run as written, in bash, with `rienda`
 * on PATH (the binary under test) and `jq`, against the scripted provider:
 * what each prints is what the recipe promises.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { markedBlock } from "../support/doc-blocks.ts";
import { BINARY } from "../support/instance.ts";
import type { RecordedRequest, ScriptedTurn } from "../support/provider-server.ts";
import { scenario, type Scenario } from "../support/scenario.ts";

const DOC = "docs/pipelines.md";
const TEST = "test/e2e/pipelines-docs.test.ts";
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
const HAS_JQ = (() => {
  try {
    execFileSync("jq", ["--version"]);
    return true;
  } catch {
    return false;
  }
})();

let s: Scenario;
let bin: string;
beforeEach(async () => {
  s = await scenario();
  s.inst.agent("bot", "---\ndescription: A pipeline agent.\nmodel: p/m\n---\nYou answer briefly.\n");
  bin = join(s.inst.root, "bin");
  mkdirSync(bin);
  symlinkSync(BINARY, join(bin, "rienda"));
});
afterEach(() => s.dispose());

/** Runs a recipe in bash in the workspace; resolves with what it printed. */
function runRecipe(name: string, stdin = ""): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const script = markedBlock(DOC, TEST, name);
  return new Promise((resolve) => {
    const child = spawn("bash", ["-e", "-o", "pipefail", "-c", script], {
      cwd: s.inst.workspace,
      env: s.inst.env({ PATH: `${bin}:${process.env.PATH}` }),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.stdin.end(stdin);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The name of the first document a request carried (`<document name="...">`). */
function documentName(request: RecordedRequest): string {
  return /<document name=\\"([^\\"]+)\\"/.exec(JSON.stringify(request.body))?.[1] ?? "";
}

const answer = (args: unknown): ScriptedTurn => ({ toolCalls: [{ name: "final_answer", arguments: args }] });

describe.skipIf(!HAS_JQ)("docs/pipelines.md recipes", () => {
  test("summarize a file", async () => {
    s.inst.file("notes.txt", "We met. We decided to ship on Friday.\n");
    s.server.script({ text: "- met\n- decided\n- ship Friday" });
    const r = await runRecipe("recipe-summarize");
    expect(r.stderr).not.toContain("rienda:");
    expect(r.stdout).toBe("- met\n- decided\n- ship Friday\n");
    expect(JSON.stringify(s.server.requests[0]!.body)).toContain("We decided to ship on Friday.");
  });

  test("classify the lines of a log into JSON", async () => {
    s.inst.file("app.log", "start\ndisk full\nretry failed\n");
    s.server.script(
      answer({
        lines: [
          { line: 1, level: "info" },
          { line: 2, level: "error" },
          { line: 3, level: "error" },
        ],
      }),
    );
    const r = await runRecipe("recipe-classify");
    expect(r.stderr).not.toContain("rienda:");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("2\n3\n");
    const tool = (s.server.requests[0]!.body as { tools: { function: { parameters: { required: string[] } } }[] })
      .tools[0]!;
    expect(tool.function.parameters.required).toEqual(["lines"]);
  });

  test("extract fields from an image", async () => {
    writeFileSync(join(s.inst.workspace, "receipt.png"), PNG);
    s.server.script(answer({ merchant: "Cafe Luna", total: 12.5 }));
    const r = await runRecipe("recipe-image");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("12.5\n");
    expect(JSON.stringify(s.server.requests[0]!.body)).toContain(`data:image/png;base64,${PNG.toString("base64")}`);
  });

  test("loop over files in a for", async () => {
    s.inst.file("docs/a.md", "# Alpha\n");
    s.inst.file("docs/b.md", "# Beta\n");
    const about = (request: RecordedRequest): ScriptedTurn => ({ text: `about ${documentName(request)}` });
    s.server.script(about, about);
    const r = await runRecipe("recipe-for");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("docs/a.md: about docs/a.md\ndocs/b.md: about docs/b.md\n");
  });

  test("read a list with while read: --no-stdin leaves the rest of the list to the loop", async () => {
    s.inst.file("one.md", "1\n");
    s.inst.file("two.md", "2\n");
    s.inst.file("files.txt", "one.md\ntwo.md\n");
    const about = (request: RecordedRequest): ScriptedTurn => ({ text: `about ${documentName(request)}` });
    s.server.script(about, about);
    const r = await runRecipe("recipe-while");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("one.md: about one.md\ntwo.md: about two.md\n");
  });

  test("in parallel with xargs -P", async () => {
    for (const name of ["a", "b", "c"]) s.inst.file(`reports/${name}.txt`, `report ${name}\n`);
    const rate = (request: RecordedRequest): ScriptedTurn => answer({ tone: documentName(request).charCodeAt(8) - 96 });
    s.server.script(rate, rate, rate);
    const r = await runRecipe("recipe-xargs");
    expect(r.stderr).not.toContain("rienda:");
    expect(r.code).toBe(0);
    const lines = readFileSync(join(s.inst.workspace, "tones.jsonl"), "utf8").trim().split("\n").sort();
    expect(lines).toEqual([
      '{"file":"reports/a.txt","tone":1}',
      '{"file":"reports/b.txt","tone":2}',
      '{"file":"reports/c.txt","tone":3}',
    ]);
  });
});
