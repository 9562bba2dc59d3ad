/**
 * The output of one `rienda run`, plain or `--json`, behind one interface so
 * the command does not care which. Plain: stdout carries only the answer;
 * control characters of text from outside (terminal-text.ts) are shown, not
 * acted on, on stderr always and on stdout when it is a terminal.
 * JSON: stdout carries only events, run_start first and run_end last (the
 * session id is in run_start; stderr stays quiet).
 */
import type { EngineEvent, RunEndReason } from "../engine/index.ts";
import type { Usage } from "../providers/index.ts";
import { JsonPrinter, type RunStartInfo } from "./json-printer.ts";
import { dollarsText, PlainPrinter } from "./plain-printer.ts";
import type { TerminalSink } from "./terminal-text.ts";
import { noticeEvent, noticeLine } from "./terminal-front-end.ts";

/** Where a run reports. */
export interface RunOutput {
  /** The run is set up: plain prints `session: <id>`, JSON emits run_start. */
  start(info: RunStartInfo): void;
  event(event: EngineEvent): void;
  /** A `ctx.notify` notice. */
  notify(title: string, body: string): void;
  /** The run ended; prints the run's cost when known (plain: on stderr), then the failure line when there is one. */
  end(reason: RunEndReason, usage: Usage | null, message?: string, cost?: number): void;
}

/** Builds the output for `--json` or plain mode. */
export function createRunOutput(json: boolean, stdout: TerminalSink, stderr: TerminalSink): RunOutput {
  // JSON escapes every control character itself, and its consumer needs the bytes as they came.
  return json ? jsonOutput(new JsonPrinter(stdout)) : plainOutput(new PlainPrinter(stdout, stderr));
}

function plainOutput(printer: PlainPrinter): RunOutput {
  return {
    start: (info) => {
      if (info.sessionId) printer.info(`session: ${info.sessionId}`);
    },
    event: (event) => printer.event(event),
    notify: (title, body) => printer.info(noticeLine({ title, body })),
    end: (reason, usage, message, cost) => {
      if (cost !== undefined) printer.info(costLine(cost, usage));
      if (reason === "interrupted") printer.failure("the run was interrupted");
      else if (reason === "error") printer.failure(message ?? "the run failed");
      else if (reason === "max_tokens") printer.failure(message ?? "the answer was cut short at the model's output limit");
    },
  };
}

function jsonOutput(printer: JsonPrinter): RunOutput {
  return {
    start: (info) => printer.start(info),
    event: (event) => printer.event(event),
    notify: (title, body) => printer.event(noticeEvent({ title, body })),
    end: (reason, usage, message, cost) => {
      if (reason === "error") printer.error(message ?? "the run failed");
      printer.end(reason, usage, reason === "interrupted" ? "the run was interrupted" : message, cost);
    },
  };
}

/** `cost: $0.0421 (48,210 tokens in, 41,900 of them from cache; 1,204 out)`. */
export function costLine(cost: number, usage: Usage | null): string {
  const dollars = dollarsText(cost).slice(1);
  if (!usage) return `cost: $${dollars}`;
  const n = (value: number) => value.toLocaleString("en-US");
  const cached = usage.cacheReadTokens ? `, ${n(usage.cacheReadTokens)} of them from cache` : "";
  return `cost: $${dollars} (${n(usage.inputTokens)} tokens in${cached}; ${n(usage.outputTokens)} out)`;
}
