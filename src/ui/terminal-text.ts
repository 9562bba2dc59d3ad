/**
 * Text from outside Rienda's control on its way to a person: what tools and
 * hooks print or log, the output of the commands they run, their results
 * and notices, MCP servers' messages, the model's words, errors quoting any
 * of these. A control character there is an instruction to the terminal:
 * an escape sequence can move the cursor, clear the screen, retitle the
 * window, write the clipboard (OSC 52) or hide text. So each one is shown
 * as what it is (`\x1b`, `\x07`, `\x9b`) and does nothing.
 *
 * Kept: line feeds, tabs, and CRLF line ends. A carriage return not
 * followed by a line feed starts a new line (a progress bar redrawing its
 * line prints each state on a line of its own): nothing already shown can
 * be written over. Colours (SGR) are not let through either: one can hide
 * text (concealed, black on black) or leak into Rienda's own lines.
 *
 * The characters that reorder text in terminals that lay out bidirectional
 * text (the embeddings, overrides and isolates of U+202A-U+202E and
 * U+2066-U+2069, the marks U+200E, U+200F, U+061C) are shown too
 * (`\u202e`): a right-to-left override in a tool's arguments could make a
 * command read as another one in the very question that asks whether to
 * run it (the "Trojan Source" trick). Zero-width joiners stay: emoji and
 * several scripts are written with them.
 *
 * Nothing else is changed (a backslash stays a backslash), so `\x1b` on the
 * screen may also be those four characters as sent. What is written
 * elsewhere (--json, sessions, a piped stdout, what the model reads) keeps
 * the bytes as they came.
 */
import type { TextSink } from "./stream-writer.ts";

/** C0 controls but tab and line feed, DEL, C1 controls, the bidirectional controls; CRLF and a lone CR apart. */
const CONTROL = /\r\n|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** One character of CONTROL but CR (not global: `test` keeps no state). */
const ONE_CONTROL =
  /^[\u0000-\u0008\u000b-\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]$/;

/** `text` with every control character shown (`\x1b`) instead of acted on; line feeds and tabs stay, a lone CR ends the line. */
export function terminalSafe(text: string): string {
  return text.replace(CONTROL, visibleControl);
}

/** `text` as one line: line breaks and tabs become spaces (runs of them one), other control characters are shown. */
export function terminalLine(text: string): string {
  return terminalSafe(text.replace(/[\t\n\r]+/g, " "));
}

/** One control character as shown: a lone CR as a line feed, CRLF as it is, any other as `\xHH` (`\uHHHH` above U+00FF). */
export function visibleControl(control: string): string {
  if (control === "\r\n") return control;
  if (control === "\r") return "\n";
  const code = control.charCodeAt(0);
  return code > 0xff ? `\\u${code.toString(16).padStart(4, "0")}` : `\\x${code.toString(16).padStart(2, "0")}`;
}

/** Whether `ch` (one character) is a control character `terminalSafe` shows instead of passing on. */
export function isHiddenControl(ch: string): boolean {
  return ONE_CONTROL.test(ch);
}

/**
 * JSON text as JSON.stringify wrote it, with DEL and the C1 controls
 * (U+007F-U+009F) escaped too (`\u009b`): JSON.stringify escapes only
 * U+0000-U+001F, and a C1 CSI acts on a terminal like ESC [. So are U+2028
 * and U+2029, which line readers of JavaScript runtimes (Bun's readline,
 * and JS source) take for line ends: a `--json` or `rpc` line stays one
 * line for every reader. The value a reader parses is the same; only the
 * bytes differ, so `--json` output is safe to show. Outside its strings
 * JSON is ASCII, so only string contents change.
 */
export function jsonWithControlsEscaped(json: string): string {
  return json.replace(/[\u007f-\u009f\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A sink that can tell whether it is a terminal (process.stdout, process.stderr). */
export interface TerminalSink extends TextSink {
  isTTY?: boolean;
}

/**
 * `sink`, writing what it is given through `terminalSafe`: `always` for
 * stderr (read by people wherever it goes: a terminal, a log file `cat`
 * prints later); `terminal` for stdout, whose bytes stay exact when it is
 * a file or a pipe (a script's data) and are made safe only on a terminal.
 */
export function cleanedSink(sink: TerminalSink, when: "always" | "terminal"): TextSink {
  if (when === "terminal" && !sink.isTTY) return sink;
  return { write: (text: string) => sink.write(terminalSafe(text)) };
}
