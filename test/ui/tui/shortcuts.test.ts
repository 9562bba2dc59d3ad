/** The keys that open commands, `!command` lines, and image paths in a message. */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bangCommand } from "../../../src/ui/tui/bang-command.ts";
import { droppedImages } from "../../../src/ui/tui/image-input.ts";
import { Shortcuts } from "../../../src/ui/tui/shortcuts.ts";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("shortcuts", () => {
  test("Ctrl-X waits for a, m or t; another key ends the wait; Ctrl-P and Ctrl-T at once; other keys are not shortcuts", () => {
    const keys = new Shortcuts();
    expect(keys.read("\x18")).toEqual({ kind: "prefix" });
    expect(keys.read("m")).toEqual({ kind: "command", name: "model" });
    expect(keys.read("m")).toBeUndefined();
    keys.read("\x18");
    expect(keys.read("q")).toEqual({ kind: "prefix" });
    expect(keys.read("a")).toBeUndefined();
    expect(keys.read("\x10")).toEqual({ kind: "palette" });
    expect(keys.read("\x14")).toEqual({ kind: "command", name: "tree" });
  });
});

describe("!command", () => {
  test("one line starting with ! and something after it", () => {
    expect(bangCommand("!ls -1")).toBe("ls -1");
    expect(bangCommand("  ! git status ")).toBe("git status");
    expect(bangCommand("!")).toBeUndefined();
    expect(bangCommand("!a\nb")).toBeUndefined();
    expect(bangCommand("say !this")).toBeUndefined();
  });
});

describe("dropped images", () => {
  test("quoted, escaped or plain absolute paths of existing images; other files and missing ones are words", () => {
    dir = mkdtempSync(join(tmpdir(), "rienda-drop-"));
    const spaced = join(dir, "my shot.png");
    const escaped = join(dir, "other shot.webp");
    const plain = join(dir, "plain.JPG");
    writeFileSync(spaced, "x");
    writeFileSync(escaped, "x");
    writeFileSync(plain, "x");
    writeFileSync(join(dir, "notes.txt"), "x");
    const text = `see '${spaced}' and ${escaped.replace(" ", "\\ ")} and ${plain}, ${join(dir, "notes.txt")} ${join(dir, "gone.png")}`;
    expect(droppedImages(text)).toEqual([spaced, escaped, plain]);
  });
});
