/**
 * The composition side of subagents: which agents an agent may delegate to
 * (checked before the run, like its tools), and preparing one child run per
 * call: the child's own agent, model, tools, hooks and skills, its own
 * session (whose header names the parent session and the call), its own
 * model client and compactor. The policy (depth, cycles, events, results)
 * is the engine's (engine/subagents.ts).
 */
import { loadAgent, type Agent } from "../agents/index.ts";
import { noticeEvent, type ChildRun, type Emit, type SubagentSpec, type ToolCall } from "../engine/index.ts";
import { RiendaError } from "../errors.ts";
import { createModelClient } from "../providers/index.ts";
import { createSession } from "../sessions/index.ts";

import { createCompactor } from "./compactor.ts";
import type { ConfirmOrigin, Dialogs, PreparedAgent } from "./types.ts";

/** The agents `agent` declares under `agents:`, each loaded to check it and to read its description; throws RiendaError. */
export function loadSubagents(home: string, agent: Agent): SubagentSpec[] {
  return agent.agents.map((id) => ({ id, description: loadAgent(home, id).description }));
}

/** What launching a child needs from the parent's setup. */
export interface LauncherOptions {
  home: string;
  workdir: string;
  /** The parent's confirm answers the child's `ctx.confirm` (so `-y` holds); notices are the child's own events. */
  dialogs: Dialogs;
  /** The parent's session, known once the parent is bound to one. */
  parentSessionId(): string;
  /** Prepares a child agent as a run prepares its agent (setup.ts), with these dialogs. */
  prepare(agentId: string, dialogs: Dialogs): Promise<PreparedAgent>;
  /** --no-session: children's sessions are kept in memory, never written. */
  ephemeral?: boolean;
}

/**
 * Runs children for one parent agent: each child agent is prepared when
 * first called, and reused by every later call to it.
 */
export interface SubagentLauncher {
  /** The `launch` of engine/subagents.ts: one child run, in a new child session, per call. */
  launch(agentId: string, call: ToolCall, emit: Emit, signal: AbortSignal): Promise<ChildRun>;
  /** Ends every prepared child (workers, MCP servers); call when the parent is done. */
  close(): Promise<void>;
}

/** Creates the launcher of one parent agent. */
export function subagentLauncher(options: LauncherOptions): SubagentLauncher {
  const prepared = new Map<string, Promise<PreparedAgent>>();
  /** Children whose preparation has finished, so closing them does not wait on one still loading (after an interrupt). */
  const ready = new Map<string, PreparedAgent>();
  // The child's notices go to the call running it; calls run one at a time.
  let report: Emit = () => undefined;
  /** The parent's call running the child now: a child's question names its own call under it. */
  let parentCall: string | undefined;
  const dialogs: Dialogs = {
    // One level deeper than the parent's own questions (a grandchild's passes through two launchers).
    confirm: (prompt, level = 0, origin) =>
      options.dialogs.confirm(
        prompt,
        level + 1,
        origin && parentCall !== undefined ? nestedOrigin(origin, parentCall) : origin,
      ),
    notify: (notice) => report(noticeEvent(notice)),
  };
  let closed = false;
  const prepare = (agentId: string): Promise<PreparedAgent> => {
    let found = prepared.get(agentId);
    if (!found) {
      found = options.prepare(agentId, dialogs);
      // A failure is reported by the call awaiting it; one an interrupt no longer awaits must not be an unhandled rejection.
      found.then(
        (child) => {
          if (closed) void child.close();
          else ready.set(agentId, child);
        },
        () => undefined,
      );
      prepared.set(agentId, found);
    }
    return found;
  };
  return {
    async close() {
      // One still loading is closed when it is ready (above): an interrupt must not wait for a slow module.
      closed = true;
      const children = [...ready.values()];
      ready.clear();
      prepared.clear();
      await Promise.all(children.map((child) => child.close()));
    },
    async launch(agentId, call, emit, signal) {
      let child: PreparedAgent;
      try {
        child = await prepare(agentId);
      } catch (error) {
        // Not kept: the next call tries again (the user may have fixed the file meanwhile).
        prepared.delete(agentId);
        throw error;
      }
      // Interrupted while the child loaded: the call is over, so no session is created for it.
      if (signal.aborted || closed) throw new RiendaError("interrupted", "the run was interrupted");
      report = emit;
      parentCall = call.id;
      const session = createSession({
        home: options.home,
        workdir: options.workdir,
        agent: child.agent.id,
        model: child.model.ref,
        parent: { sessionId: options.parentSessionId(), callId: call.id },
        ...(options.ephemeral ? { memory: true } : {}),
      });
      child.bind(session);
      for (const notice of child.notices) emit({ type: "notice", message: notice });
      const modelPort = createModelClient();
      const compactor = createCompactor({ session, config: child.config, model: child.model, modelPort });
      return {
        input: {
          system: child.system,
          systemExtra: child.systemExtra,
          model: child.model,
          agentId: child.agent.id,
          modelPort,
          tools: child.tools,
          hooks: child.hooks,
          session,
          ...(compactor ? { compactor } : {}),
          limits: child.limits.run,
        },
        sessionId: session.id,
        workdir: options.workdir,
        // The child's workers stay for its next call; its session is done (and removed when it received nothing).
        close: () => void session.closeDiscardingUnused(),
      };
    },
  };
}

/** A child's call as the parent's events name it: `parent` is the path of call ids from the top. */
function nestedOrigin(origin: ConfirmOrigin, parentCall: string): ConfirmOrigin {
  return { callId: origin.callId, parent: origin.parent === undefined ? parentCall : `${parentCall}/${origin.parent}` };
}
