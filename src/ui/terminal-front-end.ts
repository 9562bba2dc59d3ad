/** The front end of a run or chat in a terminal: confirmations and notices on the terminal, answers read from it. */
import { formatNotice } from "../engine/index.ts";
import type { FrontEnd, Prompt } from "../tools/types.ts";
import { cleanedSink } from "./terminal-text.ts";

/** Where the terminal front end writes and reads. */
export interface TerminalStreams {
  stderr: { write(text: string): unknown; isTTY?: boolean };
  stdin: {
    isTTY?: boolean;
    on?(event: "data", listener: (chunk: Buffer | string) => void): unknown;
    off?(event: "data", listener: (chunk: Buffer | string) => void): unknown;
  };
  stdout: { write: (...args: never[]) => unknown };
}

/** Settings of the plain command line's front end. */
export interface TerminalFrontEndOptions {
  /** `-y`: every confirm answers true without asking. */
  autoApprove: boolean;
  /** An interrupt cancels a pending question (answered false). */
  signal?: AbortSignal;
  /** Called when Ctrl-C is pressed at a question: it interrupts the command, it is not a "no". */
  onInterrupt?: () => void;
  /** Defaults to the process's streams. */
  streams?: TerminalStreams;
  /**
   * Whether the output of commands a tool runs is echoed as it comes
   * (default true). `rienda tool run` turns it off when stdout and stderr
   * are the same terminal: the result printed afterwards usually carries
   * that output, and a person would read it twice.
   */
  echoProcessOutput?: boolean;
}

/**
 * The `FrontEnd` of the plain command line: `ctx.log` and process output go
 * to stderr as they come (stdout is reserved for results), notices are one
 * stderr line, and `confirm` asks on the terminal only when there is one.
 * Control characters in all of it are shown, not acted on.
 */
export function createTerminalFrontEnd(options: TerminalFrontEndOptions): FrontEnd {
  const streams = options.streams ?? defaultStreams();
  // None of it is Rienda's text: its control characters are shown, not acted on (terminal-text.ts).
  const stderr = cleanedSink(streams.stderr, "always");
  return {
    log(text) {
      stderr.write(text.endsWith("\n") ? text : `${text}\n`);
    },
    output(_stream, text) {
      if (options.echoProcessOutput !== false) stderr.write(text);
    },
    notify(prompt) {
      stderr.write(`${noticeLine(prompt)}\n`);
    },
    confirm(prompt) {
      return answerConfirm(prompt, {
        autoApprove: options.autoApprove,
        streams,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onInterrupt ? { onInterrupt: options.onInterrupt } : {}),
      });
    },
  };
}

/** The one line a notice prints as. */
export function noticeLine(prompt: Prompt): string {
  return `notice: ${formatNotice(prompt.title, prompt.body)}`;
}

/**
 * Answers a `ctx.confirm` (`level`: how deep the asking agent runs, 0 for
 * the agent run, 1 for its subagent): true with auto-approve; otherwise asks on the
 * terminal when stdin and stderr are both terminals; otherwise false (a
 * script never hangs waiting for a yes nobody can give). Ctrl-C at the
 * question calls `onInterrupt` (and answers false): in a terminal Ctrl-C
 * means "stop", as it does everywhere else; Esc or Enter mean "no".
 */
export async function answerConfirm(
  prompt: Prompt,
  options: {
    autoApprove: boolean;
    signal?: AbortSignal;
    onInterrupt?: () => void;
    streams?: TerminalStreams;
    level?: number;
  },
): Promise<boolean> {
  if (options.autoApprove) return true;
  const streams = options.streams ?? defaultStreams();
  if (!streams.stdin.isTTY || !streams.stderr.isTTY || options.signal?.aborted) return false;
  return askOnTerminal(prompt, streams, "  ".repeat(options.level ?? 0), options.signal, options.onInterrupt);
}

/**
 * The chat's own question (`? title`, the body, `[y/N]`, then the answer on
 * the same line), so a confirm looks the same in `rienda run`, `rienda tool
 * run` and the chat. It is drawn on stderr: stdout carries only results.
 * The terminal is raw while the question is open, so Ctrl-C arrives as a
 * key: it answers no and is passed on to `onInterrupt`. A subagent's
 * question is indented two spaces per level, as its tool lines are.
 */
async function askOnTerminal(
  prompt: Prompt,
  streams: TerminalStreams,
  indent: string,
  signal: AbortSignal | undefined,
  onInterrupt: (() => void) | undefined,
): Promise<boolean> {
  // Loaded only when a question is asked: most runs never ask, and start faster without readline.
  const [{ askYesNo }, { createChatStyle }] = await Promise.all([
    import("./chat/prompts.ts"),
    import("./chat/chat-style.ts"),
  ]);
  const input = streams.stdin as NodeJS.ReadStream;
  const output = streams.stderr as NodeJS.WriteStream;
  let ctrlC = false;
  const onKeypress = (_text: string | undefined, key: { name?: string; ctrl?: boolean } | undefined) => {
    if (key?.ctrl && key.name === "c") ctrlC = true;
  };
  input.on("keypress", onKeypress);
  try {
    const answer = await askYesNo(
      { input, output, style: createChatStyle(colorsWanted(output)) },
      prompt.title,
      prompt.body,
      signal,
      indent,
    );
    if (ctrlC) onInterrupt?.();
    return answer;
  } finally {
    input.off("keypress", onKeypress);
    if (input.isTTY) input.setRawMode(false);
  }
}

/** Colours on stderr: a terminal, and neither NO_COLOR nor TERM=dumb. */
function colorsWanted(output: { isTTY?: boolean }): boolean {
  return Boolean(output.isTTY) && process.env.NO_COLOR === undefined && process.env.TERM !== "dumb";
}

function defaultStreams(): TerminalStreams {
  return {
    stderr: process.stderr,
    stdin: process.stdin,
    stdout: process.stdout as unknown as TerminalStreams["stdout"],
  };
}
