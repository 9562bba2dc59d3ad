/**
 * Turns the engine's events (the same ones `--json` prints) into blocks of
 * the transcript: the answer streamed as markdown, thinking collapsed,
 * one block per tool call with its live output and result, a subagent's
 * calls nested under the call that started it, notices, retries, hooks
 * that refused a call. It only adds and updates blocks; the screen decides
 * when to draw.
 */
import type { EngineEvent, RunOutcome } from "../../engine/index.ts";
import { turnSummaryText } from "../chat/index.ts";
import { formatDelay } from "../plain-printer.ts";
import { terminalSafe } from "../terminal-text.ts";
import { AnswerBlock } from "./answer-block.ts";
import { ThinkingBlock } from "./thinking-block.ts";
import { ToolBlock, withoutColours } from "./tool-block.ts";
import type { TuiTheme } from "./theme.ts";
import type { Transcript } from "./transcript.ts";

export class EventFeed {
  #answer?: AnswerBlock;
  #thinking?: ThinkingBlock;
  /** Tool blocks of this turn by call path (`id`, or `parent/id` for a subagent's). */
  readonly #calls = new Map<string, ToolBlock>();

  constructor(
    private readonly transcript: Transcript,
    private readonly theme: TuiTheme,
    /** /thinking: new thinking blocks start expanded. */
    private readonly thinkingExpanded: () => boolean,
  ) {}

  event(event: EngineEvent): void {
    const s = this.theme.style;
    const parent = event.parent === undefined ? undefined : this.#calls.get(event.parent);
    // A subagent's own words are its call's result, which the agent reads; its tool calls are shown.
    if (
      event.parent !== undefined &&
      (event.type === "text_delta" || event.type === "thinking_delta" || event.type === "message_end")
    )
      return;
    const key = (id: string): string => (event.parent === undefined ? id : `${event.parent}/${id}`);
    switch (event.type) {
      case "text_delta":
        this.#thinking = undefined;
        if (event.text === "") return;
        this.#answer ??= this.transcript.add(new AnswerBlock(this.theme));
        this.#answer.append(event.text);
        return;
      case "thinking_delta":
        this.#thinking ??= this.transcript.add(
          new ThinkingBlock(this.theme, this.thinkingExpanded() || this.transcript.expanded),
        );
        this.#thinking.append(event.thinking);
        return;
      case "message_end":
        this.#answer = undefined;
        this.#thinking = undefined;
        // The calls asked for are drawn now: a hook's question or refusal about one comes before it starts.
        for (const call of event.toolCalls)
          this.#calls.set(call.id, this.transcript.add(new ToolBlock(this.theme, call.name, call.arguments)));
        return;
      case "tool_call": {
        this.#answer = undefined;
        this.#thinking = undefined;
        const drawn = this.#calls.get(key(event.id));
        if (drawn) {
          drawn.announce(event.arguments);
          return;
        }
        const block = new ToolBlock(this.theme, event.name, event.arguments);
        block.announce(event.arguments);
        block.expanded = this.transcript.expanded;
        this.#calls.set(key(event.id), block);
        if (parent) parent.children.push(block);
        else this.transcript.add(block);
        return;
      }
      case "tool_output":
        this.#calls
          .get(key(event.id))
          ?.output(event.stream === "log" && !event.text.endsWith("\n") ? `${event.text}\n` : event.text);
        return;
      case "tool_result":
        this.#calls.get(key(event.id))?.result(event.text, event.isError);
        return;
      case "hook_output":
        this.transcript.line(
          s.dim(terminalSafe(withoutColours(event.text).replace(/\n$/, ""))),
          s.dim(`  │ ${event.name}: `),
          s.dim("  │ "),
        );
        return;
      case "hook":
        if (event.outcome === "refused") {
          const text = `⊘ hook ${event.name} refused the call${event.message ? `: ${terminalSafe(event.message)}` : ""}`;
          // The call the hooks run for: the first one asked for and not started (a subagent's: its last running one).
          const calls = [...this.#calls.values()];
          const last =
            event.parent === undefined ? calls.find((b) => !b.announced) : calls.reverse().find((b) => b.running);
          if (last) last.note(text);
          else this.transcript.line(s.warn(text), "  ", "  ");
        }
        return;
      case "notice":
        this.transcript.notice(terminalSafe(event.message), parent);
        return;
      case "retry": {
        const discarded = this.#answer !== undefined ? " (the answer above is discarded)" : "";
        this.#answer = undefined;
        this.transcript.line(
          s.warn(
            `transient error, retrying in ${formatDelay(event.delayMs)}: ${terminalSafe(event.message)}${discarded}`,
          ),
        );
        return;
      }
      case "subagent_start":
      case "subagent_end":
        return;
    }
  }

  /** The end of a turn: how it ended when not normally, then its duration, tokens and cost. */
  endTurn(outcome: RunOutcome, elapsedMs: number): void {
    const s = this.theme.style;
    this.#answer = undefined;
    this.#thinking = undefined;
    for (const block of this.#calls.values())
      if (block.running && outcome.reason !== "end_turn")
        block.result("the run was interrupted before this tool call finished", true);
    this.#calls.clear();
    const message = outcome.message === undefined ? undefined : terminalSafe(outcome.message);
    if (outcome.reason === "interrupted") this.transcript.line(s.warn("interrupted"));
    else if (outcome.reason === "error" || outcome.reason === "invalid_output")
      this.transcript.line(s.error(`error: ${message ?? "the run failed"}`));
    else if (outcome.reason === "max_tokens") this.transcript.line(s.warn(message ?? "the answer was cut short"));
    else if (outcome.reason === "max_turns" || outcome.reason === "max_cost" || outcome.reason === "timeout")
      this.transcript.line(s.warn(message ?? "the run reached a limit"));
    this.transcript.line(s.dim(turnSummaryText(elapsedMs, outcome.usage, outcome.cost)));
  }
}
