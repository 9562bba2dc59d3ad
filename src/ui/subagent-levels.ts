/**
 * How deep the run of each event is, for indenting a subagent's lines
 * under the call that started it (plain output and the chat alike).
 */
import type { EngineEvent } from "../engine/index.ts";

/** Follows subagent_start / subagent_end; calls run one at a time, so the subagents running form a stack. */
export class SubagentLevels {
  /** The `parent` of each subagent running, outermost first. */
  readonly #running: string[] = [];

  /** 0 for an event of the run itself, 1 for its subagent's, and so on. */
  level(parent: string | undefined): number {
    if (parent === undefined) return 0;
    // `parent` is unique among the runs in progress (a path of call ids below the first level).
    return this.#running.lastIndexOf(parent) + 1 || 1;
  }

  /** Takes note of a subagent starting or ending; other events change nothing. */
  follow(event: EngineEvent): void {
    if (event.type === "subagent_start") this.#running.push(event.parent ?? "");
    else if (event.type === "subagent_end") {
      const at = this.#running.lastIndexOf(event.parent ?? "");
      if (at !== -1) this.#running.splice(at);
    }
  }

  /** Forgets every subagent (the turn is over). */
  clear(): void {
    this.#running.length = 0;
  }
}
