/**
 * What the tmux tests of the full-screen chat share: knowing when a turn is
 * over, and the screens of docs/chat.md written one way (ids, durations and
 * the test's own paths aside) so that a run compares with the page, or
 * writes it with RIENDA_UPDATE_DOCS=1. Never imports src/.
 */
import { expect } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { markedBlock, ROOT } from "./doc-blocks.ts";
import type { Instance } from "./instance.ts";
import { hasTmux, Terminal, type TerminalOptions } from "./tmux.ts";

/** `rienda ARGS` full-screen in an 80x24 terminal without colours (options change any of it). */
export function openFullScreen(inst: Instance, options: TerminalOptions): Terminal {
  if (!hasTmux()) throw new Error("this test needs tmux (apt-get install -y tmux)");
  return Terminal.start(inst, { fullScreen: true, width: 80, height: 24, env: { NO_COLOR: "1" }, ...options });
}

/** A turn (or a switch) running: the activity line, which starts with a spinner frame. */
export const BUSY = /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /m;

/**
 * Waits until no turn runs after `turns` end-of-turn lines and the status
 * line names an agent (`agent` when given: that one); returns the screen.
 */
export async function chatIdle(t: Terminal, turns = 0, agent = "[^\\s-]\\S*"): Promise<string> {
  const ready = (screen: string) => !BUSY.test(screen) && new RegExp(`(^|\\n)agent ${agent} · model `).test(screen);
  await t.waitFor((h) => h.split("\n─ ").length - 1 >= turns && ready(t.screen()));
  return t.screen();
}

/** What changes from run to run, written one way; `workspace` (the test's directory) reads `~/project`. */
export function normaliseScreen(screen: string, workspace?: string): string {
  let shown = screen;
  if (workspace) shown = shown.replaceAll(workspace, "~/project");
  return (
    shown
      .replace(/\b[0-9a-hjkmnp-tv-z]{26}\b/g, "<id>")
      .replace(/^─ \d+\.\ds/gm, "─ 0.0s")
      // The activity line: its spinner's frame and its clock.
      .replace(
        /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] ([^·\n]*?)( \d+(?:\.\d)?s)?( ·|$)/gm,
        (_, phase: string, clock: string | undefined, end: string) => `⠋ ${phase}${clock ? " 0.0s" : ""}${end}`,
      )
      .replace(/^rienda \d+\.\d+\.\d+\S* ·/m, "rienda <version> ·")
      .replace(/\n\nPane is dead.*$/s, "")
  );
}

/** Compares `screen` with the block `name` of `doc` marked as checked by `test`, or writes it there with RIENDA_UPDATE_DOCS=1. */
export function matchesDocScreen(doc: string, test: string, name: string, screen: string, workspace?: string): void {
  const shown = normaliseScreen(screen, workspace);
  if (process.env.RIENDA_UPDATE_DOCS === "1") {
    const path = join(ROOT, doc);
    const text = readFileSync(path, "utf8");
    const marker = `<!-- checked by ${test}: ${name} -->\n\`\`\`text\n`;
    const at = text.indexOf(marker);
    if (at === -1) throw new Error(`${doc} has no block marked ${name}`);
    const from = at + marker.length;
    const end = from + text.slice(from).search(/^```\s*$/m);
    writeFileSync(path, `${text.slice(0, from)}${shown}\n${text.slice(end)}`);
    return;
  }
  expect(shown).toBe(normaliseScreen(markedBlock(doc, test, name).trimEnd()));
}
