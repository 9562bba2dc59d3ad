/**
 * Subagents (docs/subagents.md): each agent an agent declares under
 * `agents:` is offered to the model as the tool `agent__<id>`, which runs
 * that agent on a prompt in a child session and answers with the child's
 * final text. The policy lives here, as one more implementation behind the
 * tool port: the depth limit and cycles (errors the model reads), how the
 * child's events reach the parent (each tagged with the call's id, or the
 * path of call ids from the top for a deeper run, its start
 * and end as subagent_start / subagent_end), what the parent reads, and the
 * usage added to the parent's totals. Preparing the child (config, model,
 * tools, hooks, skills, session) is the composition root's, behind `launch`.
 */
import type { Usage } from "../providers/index.ts";
import { ABORTED, raceAbort } from "../abort-race.ts";
import { capText } from "../tools/index.ts";
import type { Emit } from "./hook-chain.ts";
import type { OutputObserver, ToolPort, ToolRunResult } from "./ports.ts";
import { runAgent, type RunInput } from "./run-agent.ts";
import type { EngineEvent, ToolCall } from "./types.ts";

/** Joins the call ids of a nested run's `parent`, from the top down. */
const PARENT_PATH_SEPARATOR = "/";

/** What a subagent's tool name starts with. */
const SUBAGENT_TOOL_PREFIX = "agent__";

/** A subagent as the parent's model sees it. */
export interface SubagentSpec {
  id: string;
  /** The child agent's own description: what the model reads to decide when to delegate. */
  description: string;
}

/** A child run, prepared for one call; the engine runs it and closes it. */
export interface ChildRun {
  input: Omit<RunInput, "prompt" | "emit" | "signal" | "finalSignal">;
  /** Reported in subagent_start. */
  sessionId: string;
  workdir: string;
  /** Ends what the child started (workers, its session's lock). */
  close(): void;
}

/** How the tools of one agent's subagents behave. */
export interface SubagentOptions {
  agents: readonly SubagentSpec[];
  /** Agent ids from the top run down to the agent these tools belong to (itself last). */
  lineage: readonly string[];
  /** How many levels of subagents may run below the top agent. */
  maxDepth: number;
  /**
   * Prepares agent `agentId` for `call`; `emit` is where the child's own
   * reports (notices) go. Throws when the child cannot be set up; the model
   * reads the message. Once `signal` is aborted it creates nothing (no
   * session) and throws: the call has already ended as interrupted.
   */
  launch(agentId: string, call: ToolCall, emit: Emit, signal: AbortSignal): Promise<ChildRun>;
}

/** The tool name of subagent `id`. */
function subagentToolName(id: string): string {
  return `${SUBAGENT_TOOL_PREFIX}${id}`;
}

/** `base` plus one tool per subagent, offered after the agent's own tools. */
export function withSubagents(base: ToolPort, options: SubagentOptions): ToolPort {
  const byName = new Map(options.agents.map((a) => [subagentToolName(a.id), a]));
  const specs = options.agents.map((agent) => ({
    name: subagentToolName(agent.id),
    description: agent.description,
    parameters: {
      type: "object",
      properties: {
        prompt: {
          type: "string",
          description: `The task for ${agent.id}, with everything it needs to know: it sees nothing of this conversation.`,
        },
      },
      required: ["prompt"],
      additionalProperties: false,
    },
  }));
  return {
    specs: () => [...base.specs(), ...specs],
    has: (name) => byName.has(name) || base.has(name),
    run(call, observer, signal, finalSignal) {
      const agent = byName.get(call.name);
      return agent
        ? runSubagent(agent, call, observer, { signal, finalSignal }, options)
        : base.run(call, observer, signal, finalSignal);
    },
  };
}

/**
 * The parent run's signals: the first interrupt ends the child as it ends
 * the parent, and the second cuts the child's afterRun hooks short as it
 * cuts the parent's (in `rienda run` and in the chat alike).
 */
interface RunSignals {
  signal: AbortSignal;
  finalSignal: AbortSignal | undefined;
}

async function runSubagent(
  agent: SubagentSpec,
  call: ToolCall,
  observer: OutputObserver,
  signals: RunSignals,
  options: SubagentOptions,
): Promise<ToolRunResult> {
  const { signal, finalSignal } = signals;
  const fail = (text: string): ToolRunResult => ({ text, isError: true });
  const prompt = promptOf(call.arguments);
  if (prompt === undefined)
    return fail(`invalid arguments for tool "${call.name}": expected {"prompt": "<the task>"} with a non-empty prompt`);
  const chain = [...options.lineage, agent.id].join(" → ");
  if (options.lineage.includes(agent.id)) {
    return fail(
      `agent "${agent.id}" is already running above this call (${chain}): an agent cannot delegate to itself, directly or through others`,
    );
  }
  if (options.lineage.length > options.maxDepth) {
    return fail(
      `subagents nest at most ${options.maxDepth} deep (subagents.max_depth in config.yaml), and "${agent.id}" would run ${options.lineage.length} below the top agent (${chain}); do this part yourself`,
    );
  }
  if (signal.aborted) return fail(`subagent "${agent.id}" was interrupted`);
  // Every event of the child carries this call's id; a grandchild's, the path of call ids down to it
  // ("a/b"): providers' call ids repeat across levels (the replay provider's, Kimi's), paths do not.
  const report = (event: EngineEvent): void =>
    observer.nested?.({
      ...event,
      parent: event.parent === undefined ? call.id : `${call.id}${PARENT_PATH_SEPARATOR}${event.parent}`,
    });
  let child: ChildRun | undefined;
  try {
    // The child's tools may take their time to load: an interrupt does not wait for them (launch sees the signal and starts nothing).
    child = await untilAborted(options.launch(agent.id, call, report, signal), signal);
  } catch (error) {
    if (signal.aborted) return fail(`subagent "${agent.id}" was interrupted`);
    return fail(`subagent "${agent.id}" could not start: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (child === undefined) return fail(`subagent "${agent.id}" was interrupted`);
  try {
    const { input } = child;
    report({
      type: "subagent_start",
      sessionId: child.sessionId,
      agent: input.agentId,
      model: input.model.ref,
      workdir: child.workdir,
    });
    let answer = "";
    const outcome = await runAgent({
      ...input,
      prompt,
      emit: (event) => {
        if (event.type === "message_end" && event.parent === undefined) answer = event.text;
        report(event);
      },
      signal,
      ...(finalSignal ? { finalSignal } : {}),
    });
    const spent = { usage: outcome.usage as Usage, ...(outcome.cost !== undefined ? { cost: outcome.cost } : {}) };
    report({
      type: "subagent_end",
      reason: outcome.reason,
      ...(outcome.message ? { message: outcome.message } : {}),
      ...spent,
    });
    // The answer is a tool result like any other: capped at 256 KiB (tools.md "Output cap").
    if (outcome.reason === "end_turn")
      return {
        text: answer.trim() === "" ? `subagent "${agent.id}" answered with no text` : capText(answer),
        isError: answer.trim() === "",
        ...spent,
      };
    if (outcome.reason === "interrupted")
      return { text: `subagent "${agent.id}" was interrupted`, isError: true, ...spent };
    if (outcome.reason === "max_tokens") {
      return {
        text: capText(
          `subagent "${agent.id}" reached its output limit (max_tokens); its answer, cut short:\n${answer}`,
        ),
        isError: true,
        ...spent,
      };
    }
    return { text: `subagent "${agent.id}" failed: ${outcome.message ?? "the run failed"}`, isError: true, ...spent };
  } finally {
    child.close();
  }
}

function promptOf(args: unknown): string | undefined {
  if (args === null || typeof args !== "object" || Array.isArray(args)) return undefined;
  const record = args as Record<string, unknown>;
  if (Object.keys(record).some((k) => k !== "prompt")) return undefined;
  return typeof record.prompt === "string" && record.prompt.trim() !== "" ? record.prompt : undefined;
}

/** `work`'s value, or undefined as soon as `signal` is aborted (a rejection of `work` after that is ignored). */
async function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  const result = await raceAbort(work, signal);
  return result === ABORTED ? undefined : result;
}
