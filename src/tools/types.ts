/**
 * What a tool is to the rest of the program, whatever runs it (a built-in in
 * this process, or a user module in a fresh context).
 */
import type { InvocationContext } from "../runtime/types.ts";

/** The result the model reads for one tool call. */
export interface ToolResult {
  text: string;
  isError: boolean;
}

/**
 * What a tool invocation runs with: the plain `ctx` data, the front end and
 * the run's signal. Owned by the runtime (it builds `ctx` from them); named
 * here for everything that deals with tools.
 */
export type { AgentInfo, ContextData, FrontEnd, Prompt, SessionInfo } from "../runtime/types.ts";
export type { InvocationContext as ToolCallContext } from "../runtime/types.ts";
/** A tool ready to be called: validation and the output cap are applied by the caller (see run-tool.ts). */
export interface Tool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  /**
   * What the arguments are checked against when it is not `parameters`
   * itself (an MCP server's schema that Rienda's validator cannot compile is
   * still sent to the model, and the server checks the arguments).
   */
  argumentSchema?: Record<string, unknown>;
  /** Absolute path of the module, "built-in", or the MCP server it belongs to. */
  source: string;
  builtIn: boolean;
  /** Runs one invocation with arguments already validated against `parameters`. */
  execute(args: Record<string, unknown>, context: InvocationContext): Promise<ToolResult>;
}
