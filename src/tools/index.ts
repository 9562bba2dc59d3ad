/**
 * Tools as the rest of the program sees them: the `Tool` shape, the built-in
 * `shell`, and the one runner that applies argument validation, result
 * conversion and the 256 KiB cap to every tool, whatever runs it.
 *
 * Invariants: a tool failure is an error result, never an exception; a
 * schema is compiled only when its tool is first called.
 * Must not know how user modules are loaded (that is extensions/ + runtime/).
 */
export { capText, RESULT_CAP_BYTES } from "./cap-text.ts";
export { createArgumentValidator, type ArgumentValidator, type SchemaProblem } from "./argument-validator.ts";
export { loadLinearRegExpEngine, type LinearRegExpEngine } from "./linear-regexp.ts";
export { resultFromValue } from "./result-from-value.ts";
export { createToolRunner, type ToolRunner } from "./run-tool.ts";
export { createShellTool, type RunCommand } from "./shell.ts";
export { shellEnvFilter, type ShellEnvPolicy } from "./shell-env.ts";
export type {
  AgentInfo,
  ContextData,
  FrontEnd,
  Prompt,
  SessionInfo,
  Tool,
  ToolCallContext,
  ToolResult,
} from "./types.ts";
