/**
 * The shapes the composition root (prepare.ts) takes and gives: what a run
 * or an agent is asked for, and what comes back ready to run. Its own file,
 * so that subagents.ts and prepare-agent.ts share them without importing each other.
 */
import type { Agent } from "../agents/index.ts";
import type { LoadedConfig, McpServerSettings } from "../config/index.ts";
import type { HookPort, ToolPort } from "../engine/index.ts";
import type { LimitSettings } from "../limits/index.ts";
import type { ResolvedModel } from "../providers/index.ts";
import type { SessionFile } from "../sessions/index.ts";
import type { ContextData, FrontEnd, Prompt } from "../tools/types.ts";
import type { ResolvedLimits, TreeBudgets } from "./run-limits.ts";

/** What the user asked for on the command line. */
export interface RunRequest {
  home: string;
  env: Record<string, string | undefined>;
  workdir: string;
  configPath?: string;
  agentId?: string;
  sessionId?: string;
  /** With sessionId: continue into a new session (the original is only read). */
  fork?: boolean;
  /** With sessionId: continue from this entry (a new branch, or the fork's point). */
  at?: string;
  /** --no-session: nothing is written, the session lives in memory. */
  ephemeral?: boolean;
  modelRef?: string;
  /** An interrupt: once aborted, no session is created or written. */
  signal?: AbortSignal;
  /** `workdir` was given with -C: a continued session runs there, not in its recorded workspace. */
  workdirGiven?: boolean;
  /** Refuses what the run's model cannot take (attachments, ...) before any session is written; throws RiendaError. */
  checkModel?: (model: ResolvedModel) => void;
  /** `--agent-file`: the agent's definition at this path (relative to `cwd`) instead of `~/.rienda/agents/<agentId>.md`. */
  agentFile?: string;
  /** Where a relative `agentFile` is; default: the process's directory. */
  cwd?: string;
  /** `--max-turns`, `--max-cost`, `--timeout`: they win over the agent's and config.yaml's. */
  limitFlags?: LimitSettings;
  /** `--tools`/`--no-tools`: the only tools offered to the agent of the run (not to its subagents). */
  onlyTools?: readonly string[];
  /** `--thinking LEVEL`. */
  thinking?: string;
  /** `--sandbox MODE`: wins over the agent's and config.yaml's `sandbox:` mode (docs/security.md). */
  sandbox?: string;
}

/** Everything a run needs, validated. */
export interface PreparedRun {
  config: LoadedConfig;
  /** The workspace the run uses: a continued session's own, unless -C said otherwise. */
  workdir: string;
  agent: Agent;
  model: ResolvedModel;
  /** The thinking level in force (`off` for none). */
  thinking: string;
  system: string;
  /** The workspace skills' catalog (go-current.md §9), read again before every request. */
  systemExtra: () => string;
  session: SessionFile;
  tools: ToolPort;
  hooks: HookPort;
  /** Diagnostics to show before the run (a user tool replacing a built-in). */
  notices: string[];
  /** What bounds the run (run-limits.ts). */
  limits: ResolvedLimits;
  /** Stops the realm helper and anything else the run started, and closes the session (releasing its lock); resolves once MCP servers have ended. */
  close(): Promise<void>;
}

/** What `prepareAgent` needs: an agent (and optionally a model) without a session. */
export interface AgentRequest {
  home: string;
  env: Record<string, string | undefined>;
  workdir: string;
  configPath?: string;
  agentId: string;
  /** Overrides the agent's model. */
  modelRef?: string;
  /** An interrupt: ends the start of MCP servers. */
  signal?: AbortSignal;
  /** --no-session: subagents' sessions are kept in memory too. */
  ephemeral?: boolean;
  /** As in RunRequest. */
  agentFile?: string;
  cwd?: string;
  limitFlags?: LimitSettings;
  onlyTools?: readonly string[];
  /** A subagent's: the budgets (cost, model requests) of the run tree it belongs to. */
  tree?: TreeBudgets;
  /** `--thinking LEVEL`: refused before any request when the model does not offer it. */
  thinking?: string;
  /** The model of the session's branch (a subagent: its parent's): used when neither -m nor the agent names one. */
  sessionModel?: string;
  /** The thinking level of the session's branch, when it records one. */
  sessionThinking?: string;
  /** As in RunRequest; a subagent inherits it. */
  sandbox?: string;
  /** MCP servers the client passed (an ACP editor's): started with config.yaml's, all their tools offered (client-mcp.ts). */
  clientMcpServers?: McpServerSettings[];
}

/**
 * An agent ready to run, not yet tied to a session: the interactive chat
 * holds one while no session exists (a session is created with the first
 * message) and binds it to each session it moves to.
 */
export interface PreparedAgent {
  config: LoadedConfig;
  agent: Agent;
  model: ResolvedModel;
  /** The thinking level in force (`off` for none), as a session entry records it. */
  thinking: string;
  /** The level was chosen (`--thinking`, state.json), not the model's own: a session records it. */
  thinkingChosen: boolean;
  system: string;
  /** The workspace skills' catalog (go-current.md §9), read again before every request. */
  systemExtra: () => string;
  tools: ToolPort;
  hooks: HookPort;
  /** Diagnostics to show before the run (a user tool replacing a built-in). */
  notices: string[];
  /** What bounds a run of this agent (run-limits.ts). */
  limits: ResolvedLimits;
  /** Sets the `ctx` data of every later tool and hook invocation to this session; returns it. */
  bind(session: SessionFile): ContextData;
  /** Stops the realm helper and anything else the agent started; resolves once MCP servers have ended. */
  close(): Promise<void>;
}

/** The parts of the front end the extensions use for confirm and notify. */
export interface Dialogs {
  /**
   * `ctx.confirm`. `level` is how deep the asking agent runs (none or 0:
   * the agent of the run, 1: its subagent, ...), so that the question is
   * indented as that agent's tool lines are.
   */
  confirm(prompt: Prompt, level?: number, origin?: ConfirmOrigin): Promise<boolean>;
  notify: FrontEnd["notify"];
}

/**
 * The tool call whose tool or hook asks, as its `tool_call` event names it:
 * `callId`, and for a subagent's call `parent`, the path of call ids above
 * it (docs/rpc.md, `confirm_request`).
 */
export interface ConfirmOrigin {
  callId: string;
  parent?: string;
}
