/**
 * The chat's input line, on node:readline (editing, history, wrapping of
 * long lines are readline's). Multi-line input is a sequence of readline
 * lines joined with newlines: a line ending in `\`, a line ended with
 * Alt-Enter, and every line of a bracketed paste continue the input
 * instead of sending it. One editor serves one input and is closed
 * afterwards, so nothing reads the terminal while a turn runs or a dialog
 * asks. The terminal is left in raw mode when the editor closes: keys
 * typed before the next reader wait unechoed instead of landing in the
 * middle of the output.
 */
import { createInterface, emitKeypressEvents, type Interface } from "node:readline";

/** How one input ended. */
export type EditorResult =
  | { kind: "submit"; text: string }
  /** Ctrl-C; `hadInput` tells whether it cleared typed text. */
  | { kind: "interrupt"; hadInput: boolean }
  /** Ctrl-D at an empty line. */
  | { kind: "eof" }
  /** Closed from outside (the program is quitting). */
  | { kind: "cancelled" };

/** The streams and prompts of one editor. */
export interface LineEditorOptions {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  prompt: string;
  /** Shown on the lines after the first of a multi-line input. */
  continuationPrompt: string;
  /** Earlier inputs, newest first; replaced with the updated list when the editor closes. */
  history: string[];
  /** Ask the terminal to mark pastes (bracketed paste), so a pasted newline does not send. */
  bracketedPaste: boolean;
  /** Text already typed (while the last answer streamed), put on the line as if typed now. */
  initial?: string;
}

/** An open editor. */
export interface OpenEditor {
  readonly result: Promise<EditorResult>;
  /** Closes the editor; the result becomes `cancelled` unless it had already ended. */
  cancel(): void;
}

/** Terminal mode 2004 (bracketed paste); readline reports the markers as paste-start / paste-end keys. */
const PASTE_ON = "\u001b[?2004h";
const PASTE_OFF = "\u001b[?2004l";

interface Key {
  name?: string;
  ctrl?: boolean;
  meta?: boolean;
}

/** Opens an editor on the terminal and shows the prompt. */
export function openLineEditor(options: LineEditorOptions): OpenEditor {
  const { input, output } = options;
  emitKeypressEvents(input);
  const rl: Interface = createInterface({
    input,
    output,
    terminal: true,
    history: [...options.history],
    historySize: 500,
    removeHistoryDuplicates: true,
    prompt: options.prompt,
  });
  if (options.bracketedPaste) output.write(PASTE_ON);

  const lines: string[] = [];
  let pasting = false;
  let newlineAsked = false;
  let settled = false;
  let resolveResult!: (result: EditorResult) => void;
  const result = new Promise<EditorResult>((resolve) => (resolveResult = resolve));

  // Keys that came in the same read as the one that ended this input (Ctrl-C twice in a row, text
  // typed on after Enter) would be dropped with readline: they are given back to the terminal's
  // stream for the next reader (the next editor, or a turn keeping typed keys).
  const late: string[] = [];
  const keepLate = (text: string | undefined, key: (Key & { sequence?: string }) | undefined): void => {
    if (settled) late.push(key?.sequence ?? text ?? "");
  };
  input.prependListener("keypress", keepLate);

  const finish = (outcome: EditorResult, after = ""): void => {
    if (settled) return;
    settled = true;
    // Runs once the read being handled has delivered all its keys, before the next reader starts.
    queueMicrotask(() => {
      input.off("keypress", keepLate);
      if (late.length > 0) input.unshift(Buffer.from(late.join(""), "utf8"));
    });
    input.off("keypress", onKeypress);
    const history = (rl as unknown as { history?: string[] }).history;
    if (Array.isArray(history)) options.history.splice(0, options.history.length, ...history);
    rl.close();
    // readline leaves the terminal cooked, which would echo keys typed before the next reader.
    if (input.isTTY) input.setRawMode(true);
    if (options.bracketedPaste) output.write(PASTE_OFF);
    if (after) output.write(after);
    resolveResult(outcome);
  };

  const onKeypress = (_text: string | undefined, key: Key | undefined): void => {
    if (settled || !key) return;
    if (key.name === "paste-start") pasting = true;
    else if (key.name === "paste-end") pasting = false;
    else if (key.meta && (key.name === "return" || key.name === "enter")) {
      // readline ignores Alt-Enter; end the line here and mark it as continued.
      newlineAsked = true;
      rl.write(null, { name: "return" });
    }
  };
  // Added after readline's own listener, so a key has been applied to the line when this sees it.
  input.on("keypress", onKeypress);

  rl.on("line", (line: string) => {
    if (settled) return;
    const continued = pasting || newlineAsked || line.endsWith("\\");
    if (continued && !pasting && !newlineAsked) line = line.slice(0, -1);
    newlineAsked = false;
    lines.push(line);
    if (continued) {
      rl.setPrompt(options.continuationPrompt);
      rl.prompt();
      return;
    }
    finish({ kind: "submit", text: lines.join("\n") });
  });
  rl.on("SIGINT", () => {
    const hadInput = rl.line !== "" || lines.length > 0;
    rl.write(null, { ctrl: true, name: "e" });
    finish({ kind: "interrupt", hadInput }, "^C\n");
  });
  rl.on("close", () => finish({ kind: "eof" }, "\n"));

  rl.prompt();
  if (options.initial) rl.write(options.initial);
  return { result, cancel: () => finish({ kind: "cancelled" }, "\n") };
}
