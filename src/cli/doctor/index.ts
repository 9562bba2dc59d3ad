/**
 * `rienda doctor`'s checks: each check is a pure function from what was
 * read to findings (severity, file, what is wrong, how to fix it);
 * `runDoctor` reads everything once and runs them; the formatters print.
 *
 * Invariants: a problem is something a run would refuse or fail on, a
 * warning breaks nothing; every finding names a file and carries a fix.
 * Must not write any file, call a tool's execute or a hook, or send a
 * model request.
 */
export { checkAgentExtensions, checkAgentFiles, checkAgentModels, type ExtensionInventory } from "./check-agents.ts";
export { checkConfig, configHint, type ConfigOutcome } from "./check-config.ts";
export { checkExtensions, extensionHint } from "./check-extensions.ts";
export { checkAgentMcpTools, checkMcpServers, isMcpReference, mcpHint } from "./check-mcp-servers.ts";
export { checkInstructions, type InstructionsOutcome } from "./check-instructions.ts";
export { checkReplayScripts, type ReplayScriptOutcome } from "./check-replay-scripts.ts";
export { checkSessions, type ModeEntry } from "./check-sessions.ts";
export { checkVariables, needs } from "./check-variables.ts";
export { findingLine, formatJson, formatReport, summaryLine } from "./format-report.ts";
export { modelUsers, usersOfProvider, type ModelUser } from "./model-users.ts";
export { runDoctor, type DoctorOptions } from "./run-doctor.ts";
export type { CheckName, CheckedSummary, DoctorReport, Finding, Severity } from "./types.ts";
