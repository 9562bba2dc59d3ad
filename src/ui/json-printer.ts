/**
 * `rienda run --json`: one JSON object per line on stdout. The first line is
 * always `run_start` and the last always `run_end`, whatever happens; the
 * schema version lets scripts detect changes (docs/cli.md).
 */
import type { EngineEvent, RunEndReason } from "../engine/index.ts";
import type { ContextWindowInfo, Usage } from "../providers/index.ts";
import type { TextSink } from "./stream-writer.ts";
import { jsonWithControlsEscaped } from "./terminal-text.ts";

/** Version of the `--json` event schema. */
const JSON_EVENTS_VERSION = 1;

/** How a run ended, as `run_end` says it (docs/cli.md). */
export interface RunEnd {
  reason: RunEndReason;
  /** Token totals; null when no request was made. */
  usage: Usage | null;
  message?: string;
  /** US dollars, when every answer was priced. */
  cost?: number;
  /** With `--schema`: the answer, which matched the schema. */
  output?: { value: unknown };
  /** What the run's tools did, subagents' runs included (new). */
  tools?: ToolCounts;
}

/** `run_end.tools`: calls made, results that were errors (refusals included), calls a permission rule or a beforeToolExecute hook refused. */
export interface ToolCounts {
  calls: number;
  failed: number;
  refused: number;
}

/** Facts known when a run starts; absent when setup failed before them. */
export interface RunStartInfo {
  sessionId: string | null;
  agent: string | null;
  model: string | null;
  workdir: string | null;
  /** The model's context window, when known: config.yaml's, or what its local server reported (and when). */
  contextWindow?: ContextWindowInfo;
}

/** Writes the event stream, guaranteeing run_start first and run_end last. */
export class JsonPrinter {
  #started = false;
  #ended = false;

  constructor(private readonly stdout: TextSink) {}

  /** Emits run_start once. */
  start(info: RunStartInfo): void {
    if (this.#started) return;
    this.#started = true;
    this.#write({ type: "run_start", version: JSON_EVENTS_VERSION, ...info });
  }

  /** Emits one engine event. */
  event(event: EngineEvent): void {
    if (this.#ended) return;
    this.#ensureStarted();
    this.#write(event);
  }

  /** Emits an error event. */
  error(message: string): void {
    if (this.#ended) return;
    this.#ensureStarted();
    this.#write({ type: "error", message });
  }

  /** Emits run_end once; nothing is written after it. */
  end(end: RunEnd): void {
    if (this.#ended) return;
    this.#ensureStarted();
    this.#ended = true;
    const { reason, usage, message, cost, output, tools } = end;
    this.#write({
      type: "run_end",
      reason,
      ...(message ? { message } : {}),
      usage,
      ...(cost !== undefined ? { cost } : {}),
      ...(output ? { output: output.value } : {}),
      tools: tools ?? { calls: 0, failed: 0, refused: 0 },
    });
  }

  #ensureStarted(): void {
    if (!this.#started) this.start({ sessionId: null, agent: null, model: null, workdir: null });
  }

  #write(value: object): void {
    // Every control character escaped, DEL and C1 too: the stream is safe to show on a terminal.
    this.stdout.write(`${jsonWithControlsEscaped(JSON.stringify(value))}\n`);
  }
}
