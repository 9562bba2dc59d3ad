/**
 * The plain output of `rienda run` (contract.md §4): stdout carries only the
 * assistant's text, each message whole and newline-terminated; everything
 * else (tool lines, live output, retries, notices) goes to stderr. Thinking
 * is never printed. A subagent's lines are indented two spaces per level
 * under the call that started it; its answer is the call's result, not
 * printed.
 *
 * Text from outside (tools, commands, hooks, servers, the model) is shown
 * with its control characters visible and inert (terminal-text.ts): always
 * on stderr, which is for people; on stdout only when it is a terminal,
 * since piped or in a file the answer must be the model's bytes exactly.
 */
import type { EngineEvent } from "../engine/index.ts";
import { LineTracker } from "./stream-writer.ts";
import { SubagentLevels } from "./subagent-levels.ts";
import { terminalSafe, type TerminalSink } from "./terminal-text.ts";

// The screens (status-line.ts, format-lines.ts) take the one dollar format from here.
export { dollarsText } from "../values.ts";

/** Renders engine events as plain text. */
export class PlainPrinter {
  readonly #out: LineTracker;
  readonly #err: LineTracker;
  readonly #levels = new SubagentLevels();

  readonly #answerText: boolean;

  /** `answerText: false` (`--schema`): the model's text is not printed; `answer` prints the checked answer. */
  constructor(stdout: TerminalSink, stderr: TerminalSink, options: { answerText?: boolean } = {}) {
    this.#out = new LineTracker(stdout, stdout.isTTY ? terminalSafe : undefined);
    this.#err = new LineTracker(stderr, terminalSafe);
    this.#answerText = options.answerText ?? true;
  }

  /** One line for stdout: the run's answer (a `--schema` document). */
  answer(text: string): void {
    this.#out.line(text);
  }

  /** A line for stderr (session line, notices from the front end). */
  info(text: string): void {
    this.#err.line(text);
  }

  /** Live output for stderr, as it arrives. */
  live(text: string): void {
    this.#err.raw(text);
  }

  /** Prints one engine event. */
  event(event: EngineEvent): void {
    const indent = "  ".repeat(this.#levels.level(event.parent));
    // Cleaned before indenting: a carriage return shown as a line break starts an indented line too.
    const line = (text: string) => this.#err.line(indent === "" ? text : prefixLines(indent, terminalSafe(text)));
    switch (event.type) {
      case "message_end":
        if (this.#answerText && event.text !== "" && event.parent === undefined) this.#out.line(event.text);
        break;
      case "tool_call":
        line(`tool: ${event.name} ${formatArguments(event.arguments)}`);
        break;
      case "tool_output":
      case "hook_output":
        // ctx.log writes lines; process output is passed through as it comes.
        if (event.stream === "log") line(event.text);
        else this.#err.rawIndented(event.text, indent);
        break;
      case "tool_result":
        if (event.isError) line(`tool failed: ${event.text}`);
        break;
      case "retry":
        line(`transient error, retrying in ${formatDelay(event.delayMs)}: ${event.message}`);
        break;
      case "notice":
        // Rienda's own words say whose they are; a ctx.notify (with its title) is the extension's, as written.
        line(event.title === undefined ? `rienda: ${event.message}` : event.message);
        break;
      case "subagent_start":
      case "subagent_end":
        this.#levels.follow(event);
        break;
      case "text_delta":
      case "thinking_delta":
      case "hook":
        break;
    }
  }

  /** The final failure line. */
  failure(message: string): void {
    this.#err.line(prefixLines("rienda: ", message));
  }
}

/** Arguments as one line of JSON; text that was not JSON is shown as sent. */
function formatArguments(args: unknown): string {
  if (typeof args === "string") return args;
  return JSON.stringify(args) ?? "null";
}

/** A retry delay for people: "500ms", "1s", "1.5s". */
export function formatDelay(ms: number): string {
  // One format for every wait, read by a person: seconds with one decimal ("0.6s", "2.0s").
  return `${(Math.max(0, ms) / 1000).toFixed(1)}s`;
}

/** Prefixes every line, so each line of a several-problem error reads as one. */
function prefixLines(prefix: string, text: string): string {
  return text
    .split("\n")
    .map((line) => `${prefix}${line}`)
    .join("\n");
}
