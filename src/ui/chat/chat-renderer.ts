/**
 * Turns engine events into what the chat shows: the answer streamed and
 * word-wrapped, one line per tool call, live output of tools and hooks in a
 * dimmed indented block, thinking collapsed to one dim line (or shown dim
 * with /thinking), notices, and the end-of-turn line. It only writes; what
 * to do is decided by the caller.
 *
 * Invariant: every block starts on a fresh line, so a notice or a tool line
 * never lands in the middle of streamed text.
 */
import { stripAnsi } from "consola/utils";
import type { EngineEvent, OutputStream, RunOutcome } from "../../engine/index.ts";
import { formatDelay } from "../plain-printer.ts";
import { SubagentLevels } from "../subagent-levels.ts";
import type { ChatStyle } from "./chat-style.ts";
import { firstLineOf, lastLineOf, toolCallParts, turnSummaryText, wordCount } from "./format-lines.ts";
import { StreamWrapper, truncateToWidth, wrapText } from "./wrap-text.ts";

/** Where the renderer writes and how. */
export interface RendererOptions {
  write(text: string): void;
  style: ChatStyle;
  /** Terminal columns, read at each line. */
  width: () => number;
  /** Show the model's thinking in full (dimmed) instead of one collapsed line. */
  expandThinking?: boolean;
}

type Block =
  | { kind: "none" }
  | { kind: "text"; wrapper: StreamWrapper }
  | { kind: "thinking"; text: string; wrapper?: StreamWrapper }
  | { kind: "output"; key: string; wrapper: StreamWrapper };

const OUTPUT_PREFIX = "  │ ";
const THINKING_PREFIX = "  ┊ ";

/** Renders one chat screen's output. */
export class ChatRenderer {
  readonly #write: (text: string) => void;
  readonly #style: ChatStyle;
  readonly #width: () => number;
  #block: Block = { kind: "none" };
  #atLineStart = true;
  /** Tool calls whose live output was shown, so their result need not be repeated. */
  readonly #withOutput = new Set<string>();
  /** Answer text shown since the last whole message: a retry makes it void. */
  #streamed = false;
  readonly #levels = new SubagentLevels();
  /** Two spaces per subagent level of the event being rendered. */
  #indent = "";
  expandThinking: boolean;

  constructor(options: RendererOptions) {
    this.#write = options.write;
    this.#style = options.style;
    this.#width = options.width;
    this.expandThinking = options.expandThinking ?? false;
  }

  /** Renders one engine event. */
  event(event: EngineEvent): void {
    const s = this.#style;
    // A subagent's answer is its tool call's result, not the assistant's text; its tool lines are shown.
    if (
      event.parent !== undefined &&
      (event.type === "text_delta" || event.type === "thinking_delta" || event.type === "message_end")
    )
      return;
    // A subagent's lines are indented under the call that started it, as in plain output.
    this.#indent = "  ".repeat(this.#levels.level(event.parent));
    // Call ids may repeat across levels: a subagent's are told apart by its parent.
    const callKey = (id: string): string => (event.parent === undefined ? id : `${event.parent}:${id}`);
    switch (event.type) {
      case "text_delta":
        this.#streamed ||= event.text !== "";
        this.#text(event.text);
        break;
      case "thinking_delta":
        this.#thinking(event.thinking);
        break;
      case "message_end":
        this.#streamed = false;
        this.closeBlock();
        break;
      case "tool_call": {
        const parts = toolCallParts(event.name, event.arguments, this.#columns() - this.#indent.length);
        this.line(`${this.#indent}${s.accent("•")} ${s.bold(parts.name)}${parts.args ? ` ${s.dim(parts.args)}` : ""}`);
        break;
      }
      case "tool_output":
        this.#output(callKey(event.id), logLine(event.stream, event.text));
        break;
      case "hook_output":
        this.#output(`hook:${event.name}:${event.point}`, logLine(event.stream, event.text));
        break;
      case "tool_result":
        this.#result(callKey(event.id), event.text, event.isError);
        break;
      case "subagent_start":
      case "subagent_end":
        this.#levels.follow(event);
        break;
      case "retry":
        this.paragraph(
          `transient error, retrying in ${formatDelay(event.delayMs)}: ${event.message}${this.#streamed ? " (the answer above is discarded)" : ""}`,
          (t) => s.warn(t),
        );
        this.#streamed = false;
        break;
      case "hook":
        if (event.outcome === "refused")
          this.paragraph(
            `⊘ hook ${event.name} refused the call${event.message ? `: ${event.message}` : ""}`,
            (t) => s.warn(t),
            `${this.#indent}  `,
          );
        break;
      case "notice":
        // A subagent's notice sits under its call, as its tool lines and questions do.
        this.notice(event.message, this.#indent);
        break;
    }
  }

  /** A notice line (`ctx.notify`, a failing hook, a diagnostic), `indent` before each of its lines (a subagent's). */
  notice(message: string, indent = ""): void {
    this.closeBlock();
    const lead = `${indent}  `;
    const text = wrapText(message, this.#columns(), lead, (t) => this.#style.warn(t));
    this.#raw(text.startsWith(lead) ? `${indent}${this.#style.warn("! ")}${text.slice(lead.length)}` : text);
  }

  /** Writes whole lines (already styled) on a fresh line. */
  line(text: string): void {
    this.closeBlock();
    this.#raw(text.endsWith("\n") ? text : `${text}\n`);
  }

  /** Wraps and writes plain text as whole lines, each styled by `paint`. */
  paragraph(text: string, paint?: (text: string) => string, prefix = ""): void {
    this.closeBlock();
    this.#raw(wrapText(text, this.#columns(), prefix, paint));
  }

  /** Ends the current block (flushing a word still waiting) so the next output starts on a fresh line. */
  closeBlock(): void {
    const block = this.#block;
    this.#block = { kind: "none" };
    if (block.kind === "text" || block.kind === "output") this.#raw(block.wrapper.end());
    else if (block.kind === "thinking") {
      if (block.wrapper) this.#raw(block.wrapper.end());
      else this.#raw(`${this.#style.dim(` ${wordCount(block.text)} words`)}\n`);
    }
    if (!this.#atLineStart) this.#raw("\n");
  }

  /** The end of a turn: its failure if any, then duration and token usage. */
  endTurn(outcome: RunOutcome, elapsedMs: number): void {
    const s = this.#style;
    this.closeBlock();
    if (outcome.reason === "interrupted") this.line(s.warn("interrupted"));
    else if (outcome.reason === "error")
      this.paragraph(`error: ${outcome.message ?? "the run failed"}`, (t) => s.error(t));
    else if (outcome.reason === "max_tokens")
      this.paragraph(outcome.message ?? "the answer was cut short", (t) => s.warn(t));
    else if (outcome.reason === "max_turns" || outcome.reason === "max_cost")
      this.paragraph(outcome.message ?? "the run reached a limit", (t) => s.warn(t));
    this.line(s.dim(turnSummaryText(elapsedMs, outcome.usage, outcome.cost)));
    this.#raw("\n");
    this.#withOutput.clear();
    this.#levels.clear();
  }

  #text(text: string): void {
    if (this.#block.kind !== "text") {
      this.closeBlock();
      this.#block = { kind: "text", wrapper: new StreamWrapper({ width: () => this.#columns() }) };
    }
    this.#raw(this.#block.wrapper.push(text));
  }

  #thinking(text: string): void {
    if (this.#block.kind !== "thinking") {
      this.closeBlock();
      const s = this.#style;
      if (this.expandThinking) {
        this.#block = {
          kind: "thinking",
          text: "",
          wrapper: new StreamWrapper({
            width: () => this.#columns(),
            prefix: s.dim(THINKING_PREFIX),
            paint: (t) => s.dim(t),
          }),
        };
        this.#raw(`${s.dim("✻ thinking")}\n`);
      } else {
        this.#block = { kind: "thinking", text: "" };
        this.#raw(s.dim("✻ thinking…"));
      }
    }
    const block = this.#block;
    block.text += text;
    if (block.wrapper) this.#raw(block.wrapper.push(text));
  }

  #output(key: string, text: string): void {
    if (this.#block.kind !== "output" || this.#block.key !== key) {
      this.closeBlock();
      const s = this.#style;
      this.#block = {
        kind: "output",
        key,
        wrapper: new StreamWrapper({
          width: () => this.#columns(),
          prefix: s.dim(this.#indent + OUTPUT_PREFIX),
          paint: (t) => s.dim(t),
        }),
      };
    }
    this.#withOutput.add(key);
    this.#raw(this.#block.wrapper.push(text));
  }

  #result(id: string, text: string, isError: boolean): void {
    const s = this.#style;
    this.closeBlock();
    const shown = this.#withOutput.has(id);
    const indent = this.#indent;
    const width = this.#columns() - 4 - indent.length;
    if (isError) {
      // Live output already showed the body; the last line says how it ended (exit code, timeout).
      const summary = (shown ? lastLineOf(text) : firstLineOf(text)) || "failed";
      this.line(s.error(`${indent}  ✗ ${truncateToWidth(summary, width)}`));
    } else if (!shown) {
      const summary = firstLineOf(text) || "(empty result)";
      this.line(s.dim(`${indent}  ✓ ${truncateToWidth(summary, width)}`));
    }
  }

  #columns(): number {
    return Math.max(20, this.#width());
  }

  #raw(text: string): void {
    if (text === "") return;
    this.#write(text);
    // Styling may follow the last newline; what counts is the visible text.
    this.#atLineStart = stripAnsi(text).endsWith("\n");
  }
}

/** `ctx.log` writes whole lines; process output is shown as it comes. */
function logLine(stream: OutputStream, text: string): string {
  return stream === "log" && !text.endsWith("\n") ? `${text}\n` : text;
}
