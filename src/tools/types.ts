/**
 * What a tool is to the rest of the program, whatever runs it (a built-in in
 * this process, or a user module in a fresh worker).
 */

/** The result the model reads for one tool call. */
export interface ToolResult {
  text: string;
  isError: boolean;
}

/** `ctx.session`: the run a tool or hook is part of. */
export interface SessionInfo {
  id: string;
  agentId: string;
  modelId: string;
  workdir: string;
}

/** `ctx.agent`: the agent's id, its whole frontmatter and its body. */
export interface AgentInfo {
  name: string;
  description: string;
  model: string;
  tools: string[];
  hooks: string[];
  /** The skills the agent declares (docs/skills.md). */
  skills: string[];
  config: Record<string, unknown>;
  systemPrompt: string;
}

/**
 * The plain data behind `ctx` (tools.md "The context"): it is copied into
 * every fresh context, so it must be JSON-serialisable.
 */
export interface ContextData {
  workdir: string;
  session: SessionInfo;
  agent: AgentInfo;
  config: Record<string, unknown>;
}

/** A question for `ctx.confirm` and a notice for `ctx.notify`. */
export interface Prompt {
  title: string;
  body: string;
}

/**
 * The front end an invocation talks to while it runs. Implementations decide
 * how to show things (terminal, JSON events) and how `confirm` is answered
 * (a terminal question, or the auto-approve setting).
 */
export interface FrontEnd {
  /** `ctx.log` text, streamed live. */
  log(text: string): void;
  /** Live output of a process the invocation started. */
  output(stream: "stdout" | "stderr", text: string): void;
  /** `ctx.confirm`; resolves true on approval. */
  confirm(prompt: Prompt): Promise<boolean>;
  /** `ctx.notify`; must not block. */
  notify(prompt: Prompt): void;
}

/** One tool invocation's surroundings. */
export interface ToolCallContext {
  data: ContextData;
  frontEnd: FrontEnd;
  /** Aborted when the run is interrupted. */
  signal: AbortSignal;
}

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
  execute(args: Record<string, unknown>, context: ToolCallContext): Promise<ToolResult>;
}
