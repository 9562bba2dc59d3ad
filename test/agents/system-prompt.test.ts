import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { composeSystemPrompt, INSTRUCTIONS_SEPARATOR, loadProjectInstructions } from "../../src/agents/index.ts";

const root = mkdtempSync(join(tmpdir(), "rienda-instructions-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function workspace(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(root, "ws-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe("loadProjectInstructions", () => {
  test("reads AGENTS.md of the workspace, trimmed", () => {
    const ws = workspace({ "AGENTS.md": "\n# Rules\n\nUse tabs.\n\n" });
    expect(loadProjectInstructions(ws)).toEqual({ file: join(ws, "AGENTS.md"), text: "# Rules\n\nUse tabs." });
  });

  test("falls back to CLAUDE.md", () => {
    const ws = workspace({ "CLAUDE.md": "Use spaces." });
    expect(loadProjectInstructions(ws)).toEqual({ file: join(ws, "CLAUDE.md"), text: "Use spaces." });
  });

  test("AGENTS.md wins when both exist", () => {
    const ws = workspace({ "AGENTS.md": "from agents", "CLAUDE.md": "from claude" });
    expect(loadProjectInstructions(ws)?.text).toBe("from agents");
  });

  test("the first file that exists is used even when empty", () => {
    const ws = workspace({ "AGENTS.md": "  \n", "CLAUDE.md": "from claude" });
    expect(loadProjectInstructions(ws)).toEqual({ file: join(ws, "AGENTS.md"), text: "" });
  });

  test("no instructions file: undefined", () => {
    expect(loadProjectInstructions(workspace())).toBeUndefined();
  });

  test("a directory named AGENTS.md does not count", () => {
    const ws = workspace({ "CLAUDE.md": "from claude" });
    mkdirSync(join(ws, "AGENTS.md"));
    expect(loadProjectInstructions(ws)?.text).toBe("from claude");
  });

  test("BOM and CRLF are normalised", () => {
    expect(loadProjectInstructions(workspace({ "AGENTS.md": "\uFEFFa\r\nb\r\n" }))?.text).toBe("a\nb");
  });

  test("a named pipe or a device is refused at once, naming it, never read (it would block or never end)", () => {
    const fifo = workspace();
    execFileSync("mkfifo", [join(fifo, "AGENTS.md")]);
    expect(() => loadProjectInstructions(fifo)).toThrow(
      `${join(fifo, "AGENTS.md")}: is not a regular file (a named pipe); project instructions are read from plain files only`,
    );
    // A link to a device leads out of the workspace: skipped before anything is opened (workspace-link.ts).
    const zero = workspace();
    symlinkSync("/dev/zero", join(zero, "CLAUDE.md"));
    const skipped: unknown[] = [];
    expect(loadProjectInstructions(zero, (found) => skipped.push(found))).toBeUndefined();
    expect(skipped).toEqual([{ link: join(zero, "CLAUDE.md"), target: "/dev/zero" }]);
  });

  test("a file over 1 MiB is refused, naming its size", () => {
    const ws = workspace({ "AGENTS.md": "x".repeat(1024 * 1024 + 1) });
    expect(() => loadProjectInstructions(ws)).toThrow(
      `${join(ws, "AGENTS.md")}: is 1,048,577 bytes; project instructions may hold at most 1,048,576 bytes (1 MiB)`,
    );
    expect(loadProjectInstructions(workspace({ "AGENTS.md": "y".repeat(1024 * 1024) }))?.text.length).toBe(1024 * 1024);
  });

  test.skipIf(process.getuid?.() === 0)("an unreadable file is an error naming it", () => {
    const ws = workspace({ "AGENTS.md": "secret" });
    chmodSync(join(ws, "AGENTS.md"), 0o000);
    expect(() => loadProjectInstructions(ws)).toThrow(`${join(ws, "AGENTS.md")}: cannot be read: permission denied`);
  });
});

describe("composeSystemPrompt", () => {
  test("is the body, a blank line, ---, a blank line, then the instructions", () => {
    expect(INSTRUCTIONS_SEPARATOR).toBe("\n\n---\n\n");
    expect(composeSystemPrompt("You are a coder.", "Use tabs.")).toBe("You are a coder.\n\n---\n\nUse tabs.");
  });

  test("trims both parts", () => {
    expect(composeSystemPrompt("\n body \n", "\n rules \n")).toBe("body\n\n---\n\nrules");
  });

  test("without instructions it is the body alone", () => {
    expect(composeSystemPrompt("body")).toBe("body");
    expect(composeSystemPrompt("body", "   ")).toBe("body");
  });

  test("with an empty body it is the instructions alone, never a leading ---", () => {
    expect(composeSystemPrompt("", "rules")).toBe("rules");
    expect(composeSystemPrompt("", "")).toBe("");
  });
});

describe("loadProjectInstructions: unreadable files", () => {
  test("a symbolic link loop named AGENTS.md is an error naming it, not a silent fallback", () => {
    const ws = workspace({ "CLAUDE.md": "fallback" });
    symlinkSync(join(ws, "AGENTS.md"), join(ws, "AGENTS.md"));
    expect(() => loadProjectInstructions(ws)).toThrow(`${join(ws, "AGENTS.md")}: cannot be read: `);
  });
});
