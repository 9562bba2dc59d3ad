/**
 * The output of one `rienda run`, plain or `--json`, behind one interface so
 * the command does not care which. Plain: stdout carries only the answer;
 * control characters of text from outside (terminal-text.ts) are shown, not
 * acted on, on stderr always and on stdout when it is a terminal.
 * JSON: stdout carries only events, run_start first and run_end last (the
 * session id is in run_start; stderr stays quiet).
 */
import { noticeEvent, type EngineEvent, type RunEndReason } from "../engine/index.ts";
import type { Usage } from "../providers/index.ts";
export type { RunEnd } from "./json-printer.ts";
import { JsonPrinter, type RunEnd, type RunStartInfo, type ToolCounts } from "./json-printer.ts";
import { PlainPrinter } from "./plain-printer.ts";
import type { TerminalSink } from "./terminal-text.ts";
import { noticeLine } from "./terminal-front-end.ts";
import { dollarsText } from "../values.ts";

/** Where a run reports. */
export interface RunOutput {
  /** The run is set up: plain prints `session: <id>`, JSON emits run_start. */
  start(info: RunStartInfo): void;
  event(event: EngineEvent): void;
  /** A `ctx.notify` notice. */
  notify(title: string, body: string): void;
  /**
   * Rienda's notice from before the run is set up (waiting for stdin):
   * `rienda: <message>` on stderr at once, for a person; with `--json` also
   * a `notice` event, right after run_start (nothing may precede it).
   */
  early(message: string): void;
  /**
   * The run ended; prints the run's cost when known (plain: on stderr),
   * then the failure line when there is one; plain prints a `--schema`
   * answer on stdout, as one line of JSON.
   */
  end(end: RunEnd): void;
}

/** How the run's output is asked for. */
export interface RunOutputOptions {
  json: boolean;
  /** `--schema`: stdout carries only the checked answer, not the model's text. */
  structured?: boolean;
}

/** Builds the output for `--json` or plain mode. */
export function createRunOutput(options: RunOutputOptions, stdout: TerminalSink, stderr: TerminalSink): RunOutput {
  // JSON escapes every control character itself, and its consumer needs the bytes as they came.
  const output = options.json
    ? jsonOutput(new JsonPrinter(stdout))
    : plainOutput(new PlainPrinter(stdout, stderr, { answerText: !options.structured }));
  return counted(options.json ? withEarlyEvents(output, stderr) : output);
}

/** `output` with run_end's tool counts taken from the events it saw, subagents' included. */
function counted(output: RunOutput): RunOutput {
  const tools: ToolCounts = { calls: 0, failed: 0, refused: 0 };
  return {
    ...output,
    event(event) {
      if (event.type === "tool_result") {
        tools.calls++;
        if (event.isError) tools.failed++;
      } else if (event.type === "hook" && event.point === "beforeToolExecute" && event.outcome === "refused")
        tools.refused++;
      else if (event.type === "permission" && event.outcome === "refused") tools.refused++;
      output.event(event);
    },
    end: (end) => output.end({ ...end, tools: { ...tools } }),
  };
}

/** `--json`: early notices on stderr at once, and as events once run_start is out. */
function withEarlyEvents(output: RunOutput, stderr: TerminalSink): RunOutput {
  const early: string[] = [];
  let started = false;
  const flush = (): void => {
    started = true;
    for (const message of early.splice(0)) output.event({ type: "notice", message });
  };
  return {
    ...output,
    start(info) {
      output.start(info);
      flush();
    },
    early(message) {
      stderr.write(`rienda: ${message}\n`);
      if (started) output.event({ type: "notice", message });
      else early.push(message);
    },
    end(end) {
      // A run refused before it was set up: its run_start (null values) comes with its end.
      if (!started) {
        output.start({ sessionId: null, agent: null, model: null, workdir: null });
        flush();
      }
      output.end(end);
    },
  };
}

function plainOutput(printer: PlainPrinter): RunOutput {
  return {
    start: (info) => {
      if (info.sessionId) printer.info(`session: ${info.sessionId}`);
    },
    event: (event) => printer.event(event),
    notify: (title, body) => printer.info(noticeLine({ title, body })),
    early: (message) => printer.info(`rienda: ${message}`),
    end: ({ reason, usage, message, cost, output }) => {
      if (output) printer.answer(JSON.stringify(output.value));
      if (cost !== undefined) printer.info(costLine(cost, usage));
      if (reason === "interrupted") printer.failure("the run was interrupted");
      else if (reason !== "end_turn") printer.failure(message ?? FAILED[reason]);
    },
  };
}

/** The failure line of an ending without a message of its own. */
const FAILED: Record<Exclude<RunEndReason, "end_turn" | "interrupted">, string> = {
  error: "the run failed",
  max_tokens: "the answer was cut short at the model's output limit",
  invalid_output: "the answer does not match the schema",
  max_turns: "the run reached its limit of model requests",
  max_cost: "the run reached its cost limit",
  timeout: "the run reached its time limit",
};

function jsonOutput(printer: JsonPrinter): RunOutput {
  return {
    start: (info) => printer.start(info),
    event: (event) => printer.event(event),
    notify: (title, body) => printer.event(noticeEvent({ title, body })),
    early: (message) => printer.event({ type: "notice", message }),
    end: (end) => {
      if (end.reason === "error") printer.error(end.message ?? "the run failed");
      printer.end(end.reason === "interrupted" ? { ...end, message: "the run was interrupted" } : end);
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
