/**
 * The composition root of a run (compose/): reads config and agent, resolves the model,
 * loads the agent's tools and hooks (prepare-agent.ts), opens or creates the session, and
 * wires real implementations into the engine's ports. Everything that can
 * be refused is checked before anything is written or sent.
 */
import { unpricedBudget } from "../engine/index.ts";
import { RiendaError } from "../errors.ts";
import type { SessionFile } from "../sessions/index.ts";
import { loadPreparedAgent, loadRequestConfig } from "./prepare-agent.ts";
import { newSession, sessionSource, type SessionSource } from "./session-source.ts";
import { sessionWorkdir } from "./session-workdir.ts";
import { SetupProblems } from "./setup-problems.ts";
import type { Dialogs, PreparedAgent, PreparedRun, RunRequest } from "./types.ts";

/**
 * Validates the request and builds the run; throws RiendaError before
 * writing anything when refused, naming every problem found (one per line),
 * not only the first.
 */
export async function prepareRun(request: RunRequest, dialogs: Dialogs): Promise<PreparedRun> {
  const problems: SetupProblems = new SetupProblems();
  const config = problems.attempt(() => loadRequestConfig(request));
  const place = whereRunGoesOn(request, problems);
  const { existing, workdir } = place;
  const agentId = runAgentId(request, existing, problems);
  const modelRef = request.modelRef ?? (existing && !request.agentId ? existing.model : undefined);
  const fromSession = existing
    ? {
        sessionModel: existing.model,
        ...(existing.thinking !== undefined ? { sessionThinking: existing.thinking } : {}),
      }
    : {};
  let prepared: PreparedAgent;
  try {
    prepared = await loadPreparedAgent(
      config,
      { ...request, workdir, agentId, ...(modelRef !== undefined ? { modelRef } : {}), ...fromSession },
      dialogs,
      problems,
    );
  } catch (error) {
    existing?.close();
    throw error;
  }
  return openRun(request, prepared, place);
}

/** Where a run goes on: the session it continues (if any) and the workspace it runs in. */
interface RunPlace {
  existing: SessionSource | undefined;
  /** The continued session's recorded workspace, when the run moves there (with a notice when it cannot). */
  moved: { workdir: string; notice?: string } | undefined;
  workdir: string;
}

/** The session `-s` names, opened for reading, and the workspace of the run; refusals go to `problems`. */
function whereRunGoesOn(request: RunRequest, problems: SetupProblems): RunPlace {
  const existing: SessionSource | undefined = request.sessionId
    ? problems.attempt(() =>
        sessionSource(
          {
            sessionId: request.sessionId!,
            fork: request.fork === true,
            ephemeral: request.ephemeral === true,
            ...(request.at !== undefined ? { at: request.at } : {}),
          },
          { home: request.home, workdir: request.workdir },
        ),
      )
    : undefined;
  // A continued session goes on where it was started, unless -C says otherwise.
  const moved =
    existing && !request.workdirGiven ? problems.attempt(() => sessionWorkdir(existing, request.workdir)) : undefined;
  return { existing, moved, workdir: moved?.workdir ?? request.workdir };
}

/**
 * The agent of the run: `-a`, else the continued session's; "" for
 * `--agent-file`. Without one, or with both flags, the run is refused with
 * every problem collected so far.
 */
function runAgentId(request: RunRequest, existing: SessionSource | undefined, problems: SetupProblems): string {
  if (request.agentFile !== undefined && request.agentId !== undefined)
    problems.add(new RiendaError("usage", "run: give -a/--agent or --agent-file, not both"));
  const agentId = request.agentFile !== undefined ? "" : (request.agentId ?? existing?.agent);
  if (agentId === undefined) {
    if (!request.sessionId)
      problems.add(
        new RiendaError(
          "usage",
          "run: -a/--agent is required (the agents are the files of ~/.rienda/agents), or --agent-file PATH",
        ),
      );
    problems.fail();
  }
  return agentId;
}

/**
 * The prepared agent tied to its session: the continued one (its branch
 * told the agent, model and thinking level of this run) or a new one. The
 * first write; nothing is written after an interrupt, and a failure closes
 * what was opened.
 */
async function openRun(request: RunRequest, prepared: PreparedAgent, place: RunPlace): Promise<PreparedRun> {
  const { existing, moved, workdir } = place;
  let session: SessionFile | undefined;
  try {
    // Nothing is written until every check above has passed, nor after an interrupt.
    if (request.signal?.aborted) throw new RiendaError("interrupted", "the run was interrupted");
    const { agent, model } = prepared;
    request.checkModel?.(model);
    const unpriced = unpricedBudget(prepared.limits.run, model);
    if (unpriced) throw new RiendaError("config", unpriced);
    const ephemeral = request.ephemeral === true;
    session = existing
      ? existing.open(request.home, workdir)
      : newSession({ home: request.home, workdir, agent: agent.id, model: model.ref, ephemeral });
    if (existing) {
      session.appendAgent(agent.id);
      session.appendModel(model.ref);
    }
    // Go's shape (go-current.md §5): a level chosen for this run goes on the branch, so -s continues with it.
    if (prepared.thinkingChosen) session.appendThinking(prepared.thinking);
    prepared.bind(session);
    const { system, tools, hooks, limits } = prepared;
    const notices = moved?.notice ? [moved.notice, ...prepared.notices] : prepared.notices;
    const opened = session;
    const close = async () => {
      await prepared.close();
      // A session this run created that received nothing (interrupted in its beforeRun hooks) is not kept.
      opened.closeDiscardingUnused();
    };
    return {
      config: prepared.config,
      workdir,
      agent,
      model,
      thinking: prepared.thinking,
      system,
      systemExtra: prepared.systemExtra,
      session,
      tools,
      hooks,
      notices,
      limits,
      close,
    };
  } catch (error) {
    await prepared.close();
    if (session) session.closeDiscardingUnused();
    else existing?.close();
    throw error;
  }
}
