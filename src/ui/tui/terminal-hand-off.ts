/**
 * Where the full-screen chat lends the terminal out or writes past the
 * frame: Ctrl-G opens $VISUAL (else $EDITOR) on the message, Ctrl-Z
 * suspends the chat (the shell's `fg` brings it back, redrawn), and
 * `/copy` writes OSC 52, which the terminal turns into a clipboard write.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Editor, TUI } from "@mariozechner/pi-tui";

/** Why the terminal `env` describes will not take OSC 52, when it is one known not to; undefined otherwise (most do). */
export function osc52Refusal(env: Record<string, string | undefined>): string | undefined {
  if (env.TERM_PROGRAM === "Apple_Terminal") return "Apple's Terminal does not take OSC 52";
  if (env.STY !== undefined && env.TMUX === undefined) return "GNU screen does not pass OSC 52 on";
  return undefined;
}

/** The OSC 52 sequence that puts `text` on the clipboard. */
export function osc52(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, "utf8").toString("base64")}\x07`;
}

/**
 * Opens the editor's text in $VISUAL or $EDITOR (a command line, run by
 * sh, given the file's path), and puts what was saved back in the editor.
 * `problem` gets a line to show when neither is set or the editor failed.
 */
export function editExternally(tui: TUI, editor: Editor, problem: (text: string) => void): void {
  const command = process.env.VISUAL || process.env.EDITOR;
  if (!command) {
    problem("Ctrl-G opens $VISUAL or $EDITOR: neither is set");
    tui.requestRender();
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "rienda-message-"));
  const file = join(dir, "message.md");
  try {
    // Pasted blocks shown as `[paste #1 +40 lines]` go to the editor in full.
    writeFileSync(file, editor.getExpandedText());
    tui.stop();
    const ran = spawnSync("sh", ["-c", `${command} "$1"`, "sh", file], { stdio: "inherit" });
    if (ran.status === 0) editor.setText(readFileSync(file, "utf8").replace(/\n$/, ""));
    else
      problem(
        `Ctrl-G: ${command} ended with ${ran.status === null ? `signal ${ran.signal}` : `exit ${ran.status}`}; the message is as it was`,
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
    tui.start();
    tui.requestRender(true);
  }
}

/** Ctrl-Z: the terminal back to the shell, the process stopped; redrawn when continued. */
export function suspendTui(tui: TUI): void {
  tui.stop();
  process.once("SIGCONT", () => {
    tui.start();
    tui.requestRender(true);
  });
  // SIGSTOP, not SIGTSTP: a process started with SIGTSTP ignored (some launchers do that) must stop all the same.
  process.kill(process.pid, "SIGSTOP");
}
