/**
 * The models of a run: the one it talks to, chosen through the roster
 * (config.yaml's providers and the provider modules), and a provider
 * module's compaction model, both resolved before anything runs.
 */
import type { Agent } from "../agents/index.ts";
import { formatKeyPath, splitModelRef, type LoadedConfig } from "../config/index.ts";
import { RiendaError } from "../errors.ts";
import type { ResolvedModel } from "../providers/index.ts";
import { chooseModel, readState, statePath, type Roster } from "../roster/index.ts";
import { checkReplayScript } from "./check-replay-script.ts";
import { openRoster } from "./open-roster.ts";
import type { SetupProblems } from "./setup-problems.ts";
import type { AgentRequest } from "./types.ts";

/** The models chosen for a run, and what the roster said on the way. */
export interface RunModels {
  /** The run's model, before its thinking level is applied; none when it could not be chosen (a problem says why). */
  chosen: ResolvedModel | undefined;
  /** A provider module's `compaction.model`, resolved now; none when config.yaml has it or none is set. */
  compaction: ResolvedModel | undefined;
  /** What modules printed while they were evaluated: the run's notices. */
  printed: string[];
  /** Modules evaluated on the way that failed: the run goes on without them, and says so. */
  skipped: string[];
}

/** Chooses the run's models through a roster opened for this and closed again; refusals go to `problems`. */
export async function chooseRunModels(
  config: LoadedConfig | undefined,
  agent: Agent | undefined,
  request: AgentRequest,
  problems: SetupProblems,
): Promise<RunModels> {
  // What modules print while they are evaluated reaches the user as the run's notices (stderr, `notice` events, the chat's notices).
  const printed: string[] = [];
  const roster = config
    ? openRoster(config, { ...request, log: (text) => printed.push(text.replace(/\n$/, "")) })
    : undefined;
  const chosen = roster ? await problems.attemptAsync(() => runModel(roster, agent, request)) : undefined;
  const compaction = roster ? await problems.attemptAsync(() => compactionModel(roster)) : undefined;
  // Modules evaluated on the way (to choose the model) that failed: the run goes on without them, and says so.
  const skipped = roster && chosen ? await roster.problems() : [];
  // Once: an unknown provider already says the file is missing.
  if (roster) problems.addHint(nothingSetUp(roster), roster.config.path);
  await roster?.close();
  return { chosen, compaction, printed, skipped };
}

/**
 * The model of the run: `-m`, else the agent's, else the session's branch,
 * else state.json's or the only one offered (chooseModel); refused when it
 * cannot make a first request (a missing replay script, no key).
 */
async function runModel(
  roster: Roster,
  agent: Agent | undefined,
  request: AgentRequest,
): Promise<ResolvedModel | undefined> {
  const ref =
    request.modelRef ??
    agent?.model ??
    request.sessionModel ??
    (agent ? await chooseModel(roster, readState(statePath(request.env, request.home)), agent.id) : undefined);
  if (ref === undefined) return undefined;
  const model = await roster.resolve(ref);
  checkReplayScript(model, roster.config.path);
  return model;
}

/**
 * A refused run in a ~/.rienda without config.yaml and without a provider
 * module of the user's is most likely a setup never made: say how to make one
 * (contract.md §1: a missing config.yaml says how to create it).
 */
function nothingSetUp(roster: Roster): RiendaError | undefined {
  const { config } = roster;
  if (config.present || roster.listings().some((l) => l.origin === "module")) return undefined;
  return new RiendaError(
    "config",
    `${config.path}: no configuration file here, and no provider module in ~/.rienda/providers: run "rienda init" for a starter setup, or declare a provider (docs/config.md, docs/provider-modules.md)`,
  );
}

/**
 * `compaction.model` when a provider module offers it: resolved now (a
 * module runs asynchronously; the compactor resolves synchronously, later),
 * so a missing one fails the run before any request, as a config.yaml one does.
 */
async function compactionModel(roster: Roster): Promise<ResolvedModel | undefined> {
  const { compaction, providers } = roster.config;
  const ref = compaction.enabled ? compaction.model : undefined;
  const provider = ref === undefined ? undefined : splitModelRef(ref)?.provider;
  if (ref === undefined || provider === undefined || providers.has(provider)) return undefined;
  return roster.resolve(ref);
}

/** `config` that also resolves `model`'s reference (a module's compaction model), everything else unchanged. */
export function withModel(config: LoadedConfig, model: ResolvedModel): LoadedConfig {
  const resolveModel = (ref: string) => (ref === model.ref ? { ...model } : config.resolveModel(ref));
  return Object.assign(Object.create(config) as LoadedConfig, { resolveModel });
}

/** config.yaml's warnings about the settings of the model this run uses (a setting that is not sent). */
export function modelWarnings(config: LoadedConfig, model: ResolvedModel): string[] {
  const own = formatKeyPath(["providers", model.provider, "models", model.alias]);
  return config.warnings.filter((w) => w.path.startsWith(`${own}.`)).map((w) => `${w.file}: ${w.path}: ${w.message}`);
}
