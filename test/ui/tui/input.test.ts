/** `@` completion over the workspace, the picker and the question of the full-screen chat, driven by keys. */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listWorkspace, WorkspaceFiles } from "../../../src/ui/tui/file-mentions.ts";
import { PickerModal } from "../../../src/ui/tui/picker-modal.ts";
import { ConfirmModal, type ConfirmAnswer } from "../../../src/ui/tui/confirm-modal.ts";
import { highlightCode } from "../../../src/ui/tui/syntax-colour.ts";
import { createTuiTheme } from "../../../src/ui/tui/theme.ts";

const theme = createTuiTheme(false);
let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function workspace(files: Record<string, string>): string {
  dir = mkdtempSync(join(tmpdir(), "rienda-tui-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe("workspace paths", () => {
  test("what .gitignore and .ignore files name is left out, nested ones relative to their folder, and .git always", () => {
    const root = workspace({
      ".gitignore": "build/\n*.log\n",
      "src/.ignore": "secret.ts\n",
      "src/main.ts": "",
      "src/secret.ts": "",
      "build/out.js": "",
      "debug.log": "",
      ".git/config": "",
      "README.md": "",
    });
    expect(listWorkspace(root)).toEqual([".gitignore", "README.md", "src/.ignore", "src/main.ts"]);
  });

  test("after @ the editor is offered matching paths; the completion replaces what was typed", async () => {
    const root = workspace({ "notes.txt": "", "src/notes.ts": "", "other.md": "" });
    const provider = new WorkspaceFiles(() => root).provider();
    const signal = new AbortController().signal;
    const found = await provider.getSuggestions(["read @note"], 0, 10, { signal });
    expect(found?.prefix).toBe("@note");
    expect(found?.items.map((i) => i.value).sort()).toEqual(["notes.txt", "src/notes.ts"]);
    const applied = provider.applyCompletion(
      ["read @note please"],
      0,
      10,
      { value: "notes.txt", label: "notes.txt" },
      "@note",
    );
    expect(applied).toEqual({ lines: ["read @notes.txt  please"], cursorLine: 0, cursorCol: 16 });
    // Not after a word: an email address is not a path.
    expect(await provider.getSuggestions(["mail me@note"], 0, 12, { signal })).toBeNull();
  });

  test("/model, /agent and /thinking complete their argument; what was typed in full comes first", async () => {
    const values: Record<string, string[]> = { model: ["p/m", "p/mini", "q/other"], thinking: ["off", "low", "high"] };
    const provider = new WorkspaceFiles(
      () => workspace({}),
      async (command) => values[command] ?? [],
    ).provider();
    const signal = new AbortController().signal;
    const found = await provider.getSuggestions(["/model p/m"], 0, 10, { signal });
    expect(found?.prefix).toBe("/model p/m");
    expect(found?.items.map((i) => i.label)).toEqual(["p/m", "p/mini"]);
    expect(found?.items[0]?.value).toBe("model p/m");
    const applied = provider.applyCompletion(
      ["/thinking hi"],
      0,
      12,
      { value: "thinking high", label: "high" },
      "/thinking hi",
    );
    expect(applied.lines).toEqual(["/thinking high"]);
    expect(await provider.getSuggestions(["/tools x"], 0, 8, { signal })).toBeNull();
  });

  test("a / at the start completes the commands", async () => {
    const provider = new WorkspaceFiles(() => workspace({})).provider();
    const found = await provider.getSuggestions(["/res"], 0, 4, { signal: new AbortController().signal });
    expect(found?.items.map((i) => i.value)).toEqual(["resume"]);
  });
});

describe("the picker and the question", () => {
  test("typing searches the labels, ↑/↓ move, Enter chooses; Esc cancels", () => {
    const chosen: (string | undefined)[] = [];
    const choices = [
      { value: "p/m", label: "p/m (current)" },
      { value: "p/other", label: "p/other" },
      { value: "q/fast", label: "q/fast" },
    ];
    const picker = new PickerModal(
      theme,
      "Which model?",
      choices,
      "p/m",
      () => 24,
      (v) => chosen.push(v),
    );
    expect(picker.render(40).filter((l) => l.startsWith("❯"))).toEqual(["❯ p/m (current)"]);
    picker.handleInput("\x1b[B"); // ↓
    expect(picker.render(40).filter((l) => l.startsWith("❯"))).toEqual(["❯ p/other"]);
    for (const key of "fst") picker.handleInput(key);
    const rows = picker.render(40).map((l) => l.replaceAll("\x1b[0m", ""));
    expect(rows).toContain("  search: fst▏");
    expect(rows.filter((l) => /[pq]\//.test(l))).toEqual(["❯ q/fast"]);
    picker.handleInput("\r");
    picker.handleInput("\x1b");
    expect(chosen).toEqual(["q/fast", undefined]);
  });

  test("y answers yes; n, Enter and Esc no; Ctrl-C no and interrupts; other keys nothing", () => {
    const answers: ConfirmAnswer[] = [];
    const modal = new ConfirmModal(theme, "Publish", "Push it?", (a) => answers.push(a));
    expect(modal.render(60).slice(1)).toEqual([
      "? Publish",
      "  Push it?",
      "  [y/N] y yes · n, Enter or Esc no · Ctrl-C no and interrupt",
    ]);
    for (const key of ["x", "y", "n", "\r", "\x1b", "\x03"]) modal.handleInput(key);
    expect(answers).toEqual([
      { yes: true, interrupt: false },
      { yes: false, interrupt: false },
      { yes: false, interrupt: false },
      { yes: false, interrupt: false },
      { yes: false, interrupt: true },
    ]);
  });
});

describe("syntax colour", () => {
  test("keywords, strings, comments and numbers painted; a hash starts a comment only in languages that have them", () => {
    const mark = (tag: string) => (t: string) => `<${tag}>${t}</${tag}>`;
    const paint = { keyword: mark("k"), string: mark("s"), comment: mark("c"), number: mark("n") };
    expect(highlightCode('const x = "a" + 1; // why', "ts", paint)).toEqual([
      '<k>const</k> x = <s>"a"</s> + <n>1</n>; <c>// why</c>',
    ]);
    expect(highlightCode("echo hi # note", "sh", paint)).toEqual(["<k>echo</k> hi <c># note</c>"]);
    expect(highlightCode("a # b", "ts")).toEqual(["a # b"]);
  });
});
