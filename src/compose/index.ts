/**
 * The composition root: where a run's real parts (config, agent, model,
 * tools, hooks, skills, subagents, session) are read, checked and wired
 * into the engine's ports. Not a command: run, chat and rpc call it.
 */
export { prepareRun } from "./prepare.ts";
export { prepareAgent } from "./prepare-agent.ts";
export { loadAgentExtensions } from "./agent-extensions.ts";
export { openRoster, type RosterRequest } from "./open-roster.ts";
export { compactNow, createCompactor } from "./compactor.ts";
export { latestSessionId, sessionChoice } from "./session-source.ts";
export { sessionWorkdir } from "./session-workdir.ts";
export { parseToolList } from "./select-tools.ts";
export { readReplayScript, type ReplayScriptRead } from "./check-replay-script.ts";
export type { AgentRequest, ConfirmOrigin, Dialogs, PreparedAgent, PreparedRun, RunRequest } from "./types.ts";
