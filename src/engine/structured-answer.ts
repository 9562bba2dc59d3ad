/**
 * `--schema` in the run loop (docs/pipelines.md): the final answer must be
 * a JSON document that matches a JSON Schema. Asked for natively (the text
 * is the document) or as a call of a final tool whose arguments are the
 * document; either way the answer is checked against the user's schema,
 * an answer that misses gets one repair turn quoting the problems, and a
 * second miss ends the run as `invalid_output`.
 *
 * The answer tool is added to the agent's tools by a wrapper of the tool
 * port, so its calls go through the same round as every other call (hooks,
 * events, results stored in the session): a continued session has a result
 * for every call.
 */
import type { AnswerFormat, StructuredOutput, ToolSpec, WireSchema } from "../providers/index.ts";
import type { SchemaProblem } from "../tools/index.ts";
import type { OutputObserver, ToolPort, ToolRunResult } from "./ports.ts";
import type { ToolCall } from "./types.ts";
import { parseAnswerDocument } from "./answer-document.ts";

/** What the composition root hands the loop for `--schema`. */
export interface AnswerPort {
  /** The schema as it is sent, and whether the answer sits under `answer` in it. */
  wire: WireSchema;
  mode: StructuredOutput;
  /** Native mode: whether the schema fits the protocol's strict mode (sent as `strict`). */
  strict: boolean;
  /** Problems of an answer (unwrapped) against the user's own schema; empty when it matches. */
  problems(value: unknown): Promise<SchemaProblem[]>;
}

/** The final tool's name, made unique against the agent's own tools. */
const ANSWER_TOOL_NAME = "final_answer";

/** Answers that may miss the schema before the run fails: the first gets one repair turn. */
const ALLOWED_MISSES = 1;

/** How one answer fared against the schema. */
export type AnswerVerdict = { ok: true; value: unknown } | { ok: false; problem: string; repair: string };

/** The schema's part of one run: its tool, its format, its instruction, and what was answered. */
export class AnswerState {
  readonly toolName: string;
  readonly format: AnswerFormat;
  readonly tools: ToolPort;
  #accepted: { value: unknown } | undefined;
  #misses = 0;
  #lastProblem: string | undefined;

  constructor(
    private readonly port: AnswerPort,
    agentTools: ToolPort,
  ) {
    let name = ANSWER_TOOL_NAME;
    for (let n = 2; agentTools.has(name); n++) name = `${ANSWER_TOOL_NAME}_${n}`;
    this.toolName = name;
    this.format =
      port.mode === "native"
        ? { mode: "native", name: "answer", schema: port.wire.schema, strict: port.strict }
        : { mode: "tool", toolName: name };
    this.tools = port.mode === "tool" ? this.#withAnswerTool(agentTools) : agentTools;
  }

  /** What the system prompt says about the answer, after the agent's own (and the hooks'). */
  instruction(): string {
    if (this.port.mode === "tool") {
      return `When you have the final answer, call the \`${this.toolName}\` tool with it as its arguments; that ends the task. Do not write the answer as text.`;
    }
    return `Your final answer must be one JSON document that matches this JSON Schema, with nothing before or after it:\n${JSON.stringify(this.port.wire.schema)}`;
  }

  /** The accepted answer, once there is one. */
  get accepted(): { value: unknown } | undefined {
    return this.#accepted;
  }

  /** Whether the answers have missed the schema more often than a repair allows. */
  get failed(): boolean {
    return this.#misses > ALLOWED_MISSES;
  }

  /** Why the run fails, naming the first problem of the last answer. */
  get failure(): string {
    return `the answer does not match the schema: ${this.#lastProblem ?? "no valid answer was given"}`;
  }

  /** Judges an answer given as text: the native way, or a model that wrote it instead of calling the tool. */
  async judgeText(text: string): Promise<AnswerVerdict> {
    const parsed = parseAnswerDocument(text);
    if (!parsed.ok) {
      const problem = `it is not a JSON document (${parsed.reason})`;
      return this.#miss(
        problem,
        this.port.mode === "tool"
          ? this.#callTheTool(problem)
          : `Your answer is not a JSON document (${parsed.reason}). Answer again with only the JSON document, nothing before or after it.`,
      );
    }
    return this.#judge(parsed.value, "text");
  }

  async #judge(value: unknown, via: "text" | "tool"): Promise<AnswerVerdict> {
    const problems = await this.port.problems(value);
    if (problems.length === 0) {
      this.#accepted = { value };
      return { ok: true, value };
    }
    const prefix = via === "tool" && this.port.wire.wrapped ? "/answer" : "";
    const lines = problems.map((p) => `- ${prefix + p.pointer || "(the whole answer)"}: ${p.message}`).join("\n");
    const first = problems[0]!;
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : "";
    const problem = `${first.pointer === "" ? "" : `${first.pointer}: `}${first.message}${more}`;
    const repair =
      via === "tool"
        ? `The answer does not match the required JSON Schema:\n${lines}\nCall ${this.toolName} again with the corrected answer.`
        : this.port.mode === "tool"
          ? this.#callTheTool(`it does not match the required JSON Schema:\n${lines}`)
          : `Your answer does not match the required JSON Schema:\n${lines}\nAnswer again with only the corrected JSON document, nothing before or after it.`;
    return this.#miss(problem, repair);
  }

  #miss(problem: string, repair: string): AnswerVerdict {
    this.#misses++;
    this.#lastProblem = problem;
    return { ok: false, problem, repair };
  }

  #callTheTool(why: string): string {
    return `Your answer was written as text and ${why}\nGive the final answer by calling the ${this.toolName} tool with it as its arguments.`;
  }

  #withAnswerTool(tools: ToolPort): ToolPort {
    const spec: ToolSpec = {
      name: this.toolName,
      description:
        "Gives the final answer of the task. Call it once, when you are done, with the answer as its arguments; it ends the task.",
      parameters: this.port.wire.schema,
    };
    return {
      specs: () => [...tools.specs(), spec],
      has: (name) => name === this.toolName || tools.has(name),
      run: (
        call: ToolCall,
        observer: OutputObserver,
        signal: AbortSignal,
        finalSignal?: AbortSignal,
      ): Promise<ToolRunResult> =>
        call.name === this.toolName ? this.#answerCall(call.arguments) : tools.run(call, observer, signal, finalSignal),
    };
  }

  async #answerCall(args: unknown): Promise<ToolRunResult> {
    if (typeof args !== "object" || args === null || Array.isArray(args)) {
      const verdict = this.#miss(
        "the answer's arguments are not a JSON object",
        `The arguments of ${this.toolName} must be a JSON object matching its parameters. Call it again.`,
      );
      return { text: verdict.ok ? "" : verdict.repair, isError: true };
    }
    const value = this.port.wire.wrapped ? (args as Record<string, unknown>).answer : args;
    const verdict = await this.#judge(value, "tool");
    return verdict.ok ? { text: "The answer was accepted.", isError: false } : { text: verdict.repair, isError: true };
  }
}
