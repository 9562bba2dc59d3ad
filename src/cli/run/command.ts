/**
 * `rienda run -a AGENT -p PROMPT`: one non-interactive run, the scripting
 * entry point (contract.md §4). Exit 0 on end_turn, 1 on any failure, 130
 * when interrupted, 141 when stdout was closed; stdout carries only the
 * answer (or only JSON events).
 */
import { defineCommand } from "../shared/command.ts";
import type { ArgValues } from "../shared/strict-args.ts";
import type { LimitSettings } from "../../limits/index.ts";
import { runAgent, type RunOutcome } from "../../engine/index.ts";
import { RiendaError, userMessage } from "../../errors.ts";
import {
  contextWindowInfo,
  createModelClient,
  type AttachmentBlock,
  type ResolvedModel,
  type Usage,
} from "../../providers/index.ts";
import { answerConfirm, createRunOutput, type RunOutput } from "../../ui/index.ts";
import { interrupts, LIMIT_EXIT, type Interrupts } from "../shared/interrupts.ts";
import { limitFlags, startRunTimer, type RunTimer } from "./run-timer.ts";
import { readPromptInput, type PromptInput } from "./read-prompt.ts";
import { readAnswerSchema, type AnswerSchema } from "./answer-schema.ts";
import { checkAttachmentsFit } from "../../attachments/index.ts";
import { resolveWorkdir } from "../shared/resolve-workdir.ts";
import { runFlags, runSessionFlags } from "../shared/run-flags.ts";
import { createCompactor, parseToolList, prepareRun, sessionChoice, type PreparedRun } from "../../compose/index.ts";
import { homeDir } from "../shared/home-dir.ts";
import { exitWhenFlushed, refuseClosedStdout, untilNextInterrupt } from "../shared/exit.ts";
import { untilInterrupted } from "../../abort-race.ts";

const args = {
  agent: { type: "string", alias: "a", description: "Agent id (a file of ~/.rienda/agents)" },
  prompt: { type: "string", alias: "p", description: "The prompt; - reads it from stdin" },
  file: {
    type: "string",
    alias: "f",
    multiple: true,
    description: "Attach a file (text, PNG/JPEG/GIF/WebP image, PDF); repeatable; - is stdin",
  },
  stdin: {
    type: "boolean",
    description: "Read piped stdin as data for the prompt (the default; --no-stdin leaves it alone)",
  },
  schema: {
    type: "string",
    description: "The answer must be JSON matching this JSON Schema (a file, or the schema as JSON)",
  },
  "agent-file": {
    type: "string",
    description: "Run the agent defined in this file (its tools and hooks still come from ~/.rienda)",
  },
  "max-turns": { type: "string", description: "Stop after this many model requests (exit 3)" },
  "max-cost": {
    type: "string",
    description: "Stop before a request once the run has cost this many US dollars (exit 3)",
  },
  timeout: { type: "string", description: "End the run after this long: 90s, 10m, 1h (exit 3)" },
  tools: { type: "string", description: "Offer only these of the agent's tools, comma-separated" },
  "no-tools": { type: "boolean", description: "Offer the agent none of its tools" },
  ...runFlags,
  ...runSessionFlags,
  json: { type: "boolean", description: "Print one JSON event per line on stdout" },
} as const;

/**
 * Exit codes of `rienda run` besides the interrupts' (interrupts.ts;
 * docs/cli.md "Exit statuses"). An answer cut at max_tokens is incomplete:
 * a script must not take it for the answer, so it fails like any other run
 * that did not do what was asked. Every limit has one status, and run_end's
 * reason says which.
 */
const EXIT = {
  end_turn: 0,
  max_tokens: 1,
  error: 1,
  max_turns: LIMIT_EXIT,
  max_cost: LIMIT_EXIT,
  timeout: LIMIT_EXIT,
  invalid_output: 4,
} as const;

export default defineCommand({
  meta: { name: "run", description: "Run an agent once, non-interactively." },
  args,
  reportsUsageErrors: true,
  async run(line) {
    const watcher = interrupts();
    // A refused command line is still read whole, so that with --json it too ends with run_end.
    const output = createRunOutput(
      { json: line.values.json === true, structured: line.values.schema !== undefined },
      process.stdout,
      process.stderr,
    );
    let prepared: PreparedRun | undefined;
    let timer: RunTimer | undefined;
    let code: number;
    try {
      if (line.problem) throw line.problem;
      const parsed = line.values;
      const flags = limitFlags(parsed);
      // The run's time counts from here: a stdin that never closes, a slow MCP server, all of it.
      timer = startRunTimer(watcher);
      if (flags.timeoutMs !== undefined) timer.set({ value: flags.timeoutMs, setting: `--timeout ${parsed.timeout}` });
      if (parsed.tools !== undefined && parsed["no-tools"])
        throw new RiendaError("usage", "run: give --tools or --no-tools, not both");
      const onlyTools = parsed["no-tools"] ? [] : parsed.tools !== undefined ? parseToolList(parsed.tools) : undefined;
      const workdir = resolveWorkdir(parsed.workdir);
      // An answer nobody can read: nothing is sent, no tool runs, no session is written.
      if (refuseClosedStdout()) throw new RiendaError("interrupted", "stdout is closed");
      const schema: AnswerSchema | undefined =
        parsed.schema !== undefined ? await readAnswerSchema(parsed.schema, process.cwd()) : undefined;
      const { prompt, attachments } = await readPromptInput(
        { prompt: parsed.prompt, files: parsed.file ?? [], readStdin: parsed.stdin !== false },
        {
          stdin: process.stdin,
          cwd: process.cwd(),
          stderr: process.stderr,
          notice: (message) => output.early(message),
          signal: watcher.signal,
        },
      );
      prepared = await prepareFromFlags(parsed, { workdir, flags, onlyTools, attachments, output, watcher });
      if (prepared.limits.timeout) timer.set(prepared.limits.timeout);
      startOutput(output, prepared);
      const outcome = await runPrepared(prepared, { prompt, attachments, schema }, output, watcher);
      // An interrupt during the afterRun hooks of a finished run still ends it as interrupted.
      code =
        watcher.interrupted || outcome.reason === "interrupted"
          ? endInterrupted(output, outcome.usage, outcome.cost, timer)
          : endFinished(output, outcome, prepared.model);
    } catch (error) {
      if (watcher.interrupted) code = endInterrupted(output, null, undefined, timer);
      else {
        output.end({ reason: "error", usage: null, message: userMessage(error) });
        code = EXIT.error;
      }
    } finally {
      timer?.stop();
      // Shutdown (MCP servers, workers, the session lock) is cut short by the next interrupt.
      if (prepared) await untilNextInterrupt(prepared.close());
    }
    await exitWhenFlushed(code);
  },
});

/** What the command line settled before the agent is prepared. */
interface RunSetting {
  workdir: string;
  flags: LimitSettings;
  onlyTools: string[] | undefined;
  attachments: AttachmentBlock[];
  output: RunOutput;
  watcher: Interrupts;
}

/** Prepares the agent, model, session and tools the flags name; an interrupt gives up on it. */
function prepareFromFlags(parsed: ArgValues<typeof args>, setting: RunSetting): Promise<PreparedRun> {
  const { workdir, flags, onlyTools, attachments, output, watcher } = setting;
  const autoApprove = Boolean(parsed["auto-approve"]);
  const chosen = sessionChoice(parsed, { home: homeDir(), workdir });
  return untilInterrupted(
    prepareRun(
      {
        home: homeDir(),
        env: process.env,
        workdir,
        signal: watcher.signal,
        workdirGiven: parsed.workdir !== undefined,
        checkModel: (model) => checkAttachmentsFit(attachments, model),
        limitFlags: flags,
        cwd: process.cwd(),
        ...(onlyTools ? { onlyTools } : {}),
        ...(parsed["agent-file"] !== undefined ? { agentFile: parsed["agent-file"] } : {}),
        ...(parsed.config !== undefined ? { configPath: parsed.config } : {}),
        ...(parsed.agent !== undefined ? { agentId: parsed.agent } : {}),
        ...(chosen.sessionId !== undefined
          ? {
              sessionId: chosen.sessionId,
              fork: chosen.fork,
              ...(chosen.at !== undefined ? { at: chosen.at } : {}),
            }
          : {}),
        ...(chosen.ephemeral ? { ephemeral: true } : {}),
        ...(parsed.model !== undefined ? { modelRef: parsed.model } : {}),
        ...(parsed.thinking !== undefined ? { thinking: parsed.thinking } : {}),
        ...(parsed.sandbox !== undefined ? { sandbox: parsed.sandbox } : {}),
      },
      {
        confirm: (prompt, level) =>
          answerConfirm(prompt, {
            autoApprove,
            level: level ?? 0,
            signal: watcher.signal,
            onInterrupt: () => watcher.interrupt("ctrl-c"),
          }),
        notify: (notice) => output.notify(notice.title, notice.body),
      },
    ),
    watcher.signal,
  );
}

/** The run's first event (run_start, or the header of the text output), then the preparation's notices. */
function startOutput(output: RunOutput, prepared: PreparedRun): void {
  // --no-session: no id names a file, so none is shown.
  const contextWindow = contextWindowInfo(prepared.model);
  output.start({
    sessionId: prepared.session.ephemeral ? null : prepared.session.id,
    agent: prepared.agent.id,
    model: prepared.model.ref,
    workdir: prepared.workdir,
    ...(contextWindow ? { contextWindow } : {}),
  });
  for (const notice of prepared.notices) output.event({ type: "notice", message: notice });
}

/** The run itself: the prompt through the engine, its events to the output. */
function runPrepared(
  prepared: PreparedRun,
  input: PromptInput & { schema: AnswerSchema | undefined },
  output: RunOutput,
  watcher: Interrupts,
): Promise<RunOutcome> {
  const modelPort = createModelClient();
  const compactor = createCompactor({
    session: prepared.session,
    config: prepared.config,
    model: prepared.model,
    modelPort,
  });
  return runAgent({
    prompt: input.prompt,
    attachments: input.attachments,
    ...(input.schema ? { answer: input.schema.portFor(prepared.model) } : {}),
    system: prepared.system,
    systemExtra: prepared.systemExtra,
    model: prepared.model,
    agentId: prepared.agent.id,
    modelPort,
    ...(compactor ? { compactor } : {}),
    tools: prepared.tools,
    hooks: prepared.hooks,
    session: prepared.session,
    emit: (event) => output.event(event),
    signal: watcher.signal,
    finalSignal: watcher.finalSignal,
    limits: prepared.limits.run,
  });
}

function endFinished(output: RunOutput, outcome: RunOutcome, model: ResolvedModel | undefined): number {
  const reason = outcome.reason === "interrupted" ? "error" : outcome.reason;
  const message =
    reason === "max_tokens" && model
      ? `${outcome.message}; raise providers.${model.provider}.models.${model.alias}.max_tokens in config.yaml${model.maxTokens ? ` (now ${model.maxTokens})` : ""}, or ask for a shorter answer`
      : outcome.message;
  output.end({
    reason,
    usage: outcome.usage,
    ...(message ? { message } : {}),
    ...(outcome.cost !== undefined ? { cost: outcome.cost } : {}),
    ...(outcome.output ? { output: outcome.output } : {}),
  });
  return EXIT[reason];
}

function endInterrupted(output: RunOutput, usage: Usage | null, cost?: number, timer?: RunTimer): number {
  const watcher = interrupts();
  const spent = cost !== undefined ? { cost } : {};
  // Ended by its time limit: like an interrupt, with a reason of its own.
  if (watcher.cause === "timeout" && timer?.expired)
    output.end({ reason: "timeout", usage, message: timer.expired, ...spent });
  // Nothing reaches a closed stdout any more; exitWhenFlushed says why on stderr.
  else if (watcher.cause !== "stdout-closed") output.end({ reason: "interrupted", usage, ...spent });
  return watcher.exitCode;
}
