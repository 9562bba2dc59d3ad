/**
 * Images into the next message without `/file`: a path of an image file
 * in the message (what a terminal types when a file is dropped on it:
 * absolute or `~/`, maybe quoted or with `\ ` for spaces) is attached, and
 * Ctrl-V reads an image from the clipboard with `wl-paste` (Wayland) or
 * `xclip` (X11), where one of them is installed.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import type { ChatBackend, ChatStyle } from "../chat/index.ts";
import { terminalLine } from "../terminal-text.ts";
import type { Transcript } from "./transcript.ts";

const IMAGE = /\.(png|jpe?g|gif|webp)$/i;
/** A path as terminals type a dropped file: quoted, or with escaped spaces, or plain. */
const DROPPED = /'(\/[^']+|~\/[^']+)'|"(\/[^"]+|~\/[^"]+)"|((?:\/|~\/)(?:\\ |[^\s'"])+)/g;

/** The image files `text` names by path that exist. */
export function droppedImages(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(DROPPED)) {
    // An unquoted path may end a sentence: the punctuation after it is not part of it.
    const written = (match[1] ?? match[2] ?? match[3]!.replace(/[.,;:!?)]+$/, "")).replaceAll("\\ ", " ");
    const path = written.startsWith("~/") ? join(homedir(), written.slice(2)) : written;
    if (IMAGE.test(path) && existsSync(path) && statSync(path).isFile() && !found.includes(path)) found.push(path);
  }
  return found;
}

/** Attaches every image `text` names by path; a refused one throws, naming it. */
export function attachDroppedImages(
  text: string,
  backend: ChatBackend,
  transcript: Transcript,
  style: ChatStyle,
): void {
  for (const path of droppedImages(text)) {
    const row = backend.attach(path);
    transcript.line(style.ok(`attached ${terminalLine(row.name)} (${row.description})`));
  }
}

/** Ctrl-V: the clipboard's image attached to the next message; returns the line to show. */
export function attachClipboardImage(backend: ChatBackend): string {
  const image = clipboardImage();
  if (image === undefined)
    return "Ctrl-V: no image on the clipboard (read with wl-paste or xclip, where installed); text pastes as usual";
  const dir = mkdtempSync(join(tmpdir(), "rienda-clipboard-"));
  try {
    const path = join(dir, "clipboard.png");
    writeFileSync(path, image);
    const row = backend.attach(path);
    return `attached the clipboard's image (${row.description}) to your next message`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The clipboard's PNG image, from the first tool that has one. */
function clipboardImage(): Buffer | undefined {
  const tools: [string, string[], string[]][] = [
    ["wl-paste", ["--list-types"], ["--type", "image/png"]],
    ["xclip", ["-selection", "clipboard", "-t", "TARGETS", "-o"], ["-selection", "clipboard", "-t", "image/png", "-o"]],
  ];
  for (const [tool, list, read] of tools) {
    const types = spawnSync(tool, list, { encoding: "utf8", timeout: 2000 });
    if (types.status !== 0 || !types.stdout.split("\n").includes("image/png")) continue;
    const bytes = spawnSync(tool, read, { timeout: 5000, maxBuffer: 64 * 1024 * 1024 });
    if (bytes.status === 0 && bytes.stdout.length > 0) return bytes.stdout;
  }
  return undefined;
}
