/**
 * The composition root: where a run's real parts (config, agent, model,
 * tools, hooks, skills, subagents, session) are read, checked and wired
 * into the engine's ports. Not a command: run, chat and rpc call it.
 */
export { prepareAgent, prepareRun } from "./prepare.ts";
export { loadAgentExtensions } from "./agent-extensions.ts";
export { openRoster, type RosterRequest } from "./open-roster.ts";
export type { AgentRequest, Dialogs, PreparedAgent, PreparedRun, RunRequest } from "./types.ts";
