/**
 * Questions on the terminal: a yes/no confirmation (default no) and a pick
 * from a list. Keys come from node:readline's keypress decoding and the
 * list is redrawn with readline's cursor functions, so no escape sequence
 * is written by hand. (consola's prompts draw wrongly under Bun: their
 * hidden readline echoes keys onto the screen.)
 *
 * Each question reads the terminal only while it is open and leaves it in
 * raw mode, not reading, so keys typed afterwards wait unechoed.
 */
import { clearScreenDown, cursorTo, emitKeypressEvents, moveCursor } from "node:readline";
import type { ChatStyle } from "./chat-style.ts";
import { stripAnsi } from "consola/utils";
import { displayWidth } from "../../platform.ts";
import { truncateToWidth, wrapText } from "./wrap-text.ts";

/** The terminal a question uses. */
export interface QuestionIo {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  style: ChatStyle;
}

/** A choice of `pickOne`. */
export interface Choice {
  value: string;
  label: string;
}

interface Key {
  name?: string;
  ctrl?: boolean;
  meta?: boolean;
}

/**
 * Asks yes/no: y answers yes; n, Enter, Esc and Ctrl-C answer no. Aborting
 * `signal` answers no. `indent` starts every line of the question (a
 * subagent's question sits under its call, as its tool lines do).
 */
export function askYesNo(
  io: QuestionIo,
  title: string,
  body: string,
  signal?: AbortSignal,
  indent = "",
): Promise<boolean> {
  const { output, style } = io;
  if (signal?.aborted) return Promise.resolve(false);
  const width = columns(output);
  output.write(
    `${indent}${style.warn("?")} ${style.bold(truncateToWidth(title || "Confirm", Math.max(8, width - 2 - indent.length)))}\n`,
  );
  if (body) output.write(wrapText(body, width, `${indent}  `));
  output.write(`${indent}  ${style.dim("[y/N]")} `);
  return new Promise((resolve) => {
    const finish = readKeys(io, (text, key) => {
      if (text === "y" || text === "Y") done(true);
      else if (
        text === "n" ||
        text === "N" ||
        key.name === "return" ||
        key.name === "escape" ||
        (key.ctrl && (key.name === "c" || key.name === "d"))
      )
        done(false);
    });
    const onAbort = () => done(false, " (interrupted)");
    signal?.addEventListener("abort", onAbort, { once: true });
    let answered = false;
    function done(answer: boolean, note = ""): void {
      // Ctrl-C both interrupts the turn (aborting `signal`) and is a key read here: one answer only.
      if (answered) return;
      answered = true;
      signal?.removeEventListener("abort", onAbort);
      finish();
      output.write(`${answer ? style.ok("yes") : style.error("no")}${style.dim(note)}\n`);
      resolve(answer);
    }
  });
}

/** Asks for one of `choices` with the arrow keys (or j/k, or a number) and Enter; undefined when cancelled (Esc, Ctrl-C, Ctrl-D). */
export function pickOne(
  io: QuestionIo,
  message: string,
  choices: Choice[],
  initial?: string,
): Promise<string | undefined> {
  const { output, style } = io;
  if (choices.length === 0) return Promise.resolve(undefined);
  let active = Math.max(
    0,
    choices.findIndex((c) => c.value === initial),
  );
  let top = 0;
  let drawn: string[] = [];

  const frame = (): string[] => {
    const width = columns(output);
    const visible = Math.max(3, Math.min(choices.length, (output.rows || 24) - 4));
    if (active < top) top = active;
    if (active >= top + visible) top = active - visible + 1;
    const lines = [`${style.accent("?")} ${style.bold(truncateToWidth(message, width - 2))}`];
    for (let i = top; i < Math.min(choices.length, top + visible); i++) {
      const label = truncateToWidth(choices[i]!.label, width - 3);
      lines.push(i === active ? `${style.accent("❯")} ${style.accent(label)}` : `  ${label}`);
    }
    const more = choices.length > visible ? ` · ${active + 1}/${choices.length}` : "";
    lines.push(style.dim(truncateToWidth(`  ↑/↓ to move · Enter to choose · Esc to cancel${more}`, width - 1)));
    return lines;
  };
  const draw = (lines: string[]): void => {
    if (drawn.length > 0) {
      // Rows the last frame takes now: a terminal narrowed since wraps each
      // line that no longer fits onto more rows (most terminals reflow).
      moveCursor(output, 0, -rowsAt(drawn, columns(output)));
      cursorTo(output, 0);
      clearScreenDown(output);
    }
    output.write(`${lines.join("\n")}\n`);
    drawn = lines;
  };
  const redraw = (): void => draw(frame());

  draw(frame());
  output.on("resize", redraw);
  return new Promise((resolve) => {
    const finish = readKeys(io, (text, key) => {
      if (key.name === "up" || text === "k") active = (active + choices.length - 1) % choices.length;
      else if (key.name === "down" || text === "j" || key.name === "tab") active = (active + 1) % choices.length;
      else if (text !== undefined && /^[1-9]$/.test(text) && Number(text) <= choices.length) active = Number(text) - 1;
      else if (key.name === "return") return done(choices[active]!);
      else if (key.name === "escape" || (key.ctrl && (key.name === "c" || key.name === "d"))) return done(undefined);
      else return;
      draw(frame());
    });
    function done(choice: Choice | undefined): void {
      finish();
      output.off("resize", redraw);
      const width = columns(output);
      draw([
        `${choice ? style.ok("✔") : style.warn("✗")} ${truncateToWidth(`${message} ${choice ? choice.value : "(cancelled)"}`, width - 3)}`,
      ]);
      resolve(choice?.value);
    }
  });
}

/**
 * Reads keys until the returned function is called; leaves the terminal raw
 * and not reading. Keys that came in the same read as the one that answered
 * (`y` and the next message typed at once) are given back to the terminal's
 * stream for the next reader, as the line editor does, instead of dropped.
 */
function readKeys(io: QuestionIo, onKey: (text: string | undefined, key: Key) => void): () => void {
  const { input } = io;
  emitKeypressEvents(input);
  let settled = false;
  const late: string[] = [];
  const keepLate = (text: string | undefined, key: (Key & { sequence?: string }) | undefined): void => {
    if (settled) late.push(key?.sequence ?? text ?? "");
  };
  const listener = (text: string | undefined, key: Key | undefined) => {
    if (!settled) onKey(text, key ?? { name: text });
  };
  input.prependListener("keypress", keepLate);
  input.on("keypress", listener);
  if (input.isTTY) input.setRawMode(true);
  input.resume();
  return () => {
    if (settled) return;
    settled = true;
    input.off("keypress", listener);
    input.pause();
    // Runs once the read being handled has delivered all its keys, before the next reader starts.
    queueMicrotask(() => {
      input.off("keypress", keepLate);
      if (late.length > 0) input.unshift(Buffer.from(late.join(""), "utf8"));
    });
  };
}

/** How many terminal rows `lines` take at `width` columns. */
function rowsAt(lines: readonly string[], width: number): number {
  return lines.reduce((rows, line) => rows + Math.max(1, Math.ceil(displayWidth(stripAnsi(line)) / width)), 0);
}

function columns(output: NodeJS.WriteStream): number {
  return Math.max(20, output.columns || 80);
}
