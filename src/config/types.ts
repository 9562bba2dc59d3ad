/**
 * Shapes of a loaded `config.yaml` (contract.md §2). Field names are the
 * camelCase of the file's snake_case keys.
 */
import type {
  ApiKeySource,
  ModelPrices,
  ProtocolName,
  RequestRules,
  ResolvedModel,
  StructuredOutput,
  ThinkingLevel,
} from "../providers/types.ts";
import type { TextToolCallSetting } from "../providers/index.ts";
import type { ConfigProblem } from "./config-error.ts";
import type { LimitSettings } from "../limits/index.ts";
import type { PermissionRule } from "../permissions/index.ts";
import type { SandboxSettings } from "../sandbox/index.ts";

/** Where the configuration path came from, in precedence order. */
export type ConfigSource = "flag" | "env" | "home";

/** The configuration file to read and why it was chosen. */
export interface ConfigLocation {
  /** Absolute path of the file. */
  path: string;
  source: ConfigSource;
}

/** Inputs of `loadConfig`: nothing is read from the process, everything is passed in. */
export interface LoadConfigOptions {
  /** Value of `--config`, when given. */
  flag?: string;
  /** The environment: `RIENDA_CONFIG` and every `${NAME}` are read from it. */
  env: Readonly<Record<string, string | undefined>>;
  /** The home directory (`HOME`) that locates `~/.rienda`. */
  home: string;
  /** Directory a relative `--config` / `RIENDA_CONFIG` resolves against; default: the process's. */
  cwd?: string;
}

/** A built-in connection template (`preset:`). */
export interface Preset {
  protocol: ProtocolName;
  baseUrl: string;
  /** Default of the models' `send_thinking`: the service refuses tool-using turns without their reasoning. */
  sendThinking?: boolean;
}

/** One model of a provider, as declared under `models:`. */
export interface ModelSettings {
  alias: string;
  /** The wire id: `id`, else the alias. */
  id: string;
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  contextWindow?: number;
  thinkingLevel?: ThinkingLevel;
  thinkingMaxTokens?: number;
  /** `cache: false` turns prompt caching off; absent: on. */
  cache?: boolean;
  /** `send_thinking` as written; absent: the preset's default (off without one). */
  sendThinking?: boolean;
  /** `cost:` as written (per million tokens). */
  prices?: ModelPrices;
  /** `request_rules` as written; absent: `auto`. */
  requestRules?: RequestRules;
  /** `structured_output` as written (new); absent: the protocol's default (docs/pipelines.md). */
  structuredOutput?: StructuredOutput;
  /** `tool_calls_in_text` as written (new); absent: `auto` for a server on this machine, else `off`. */
  toolCallsInText?: TextToolCallSetting;
  /** `timeout`, `idle_timeout`, `retries` as written on the model (new). */
  timing: RequestTimingSettings;
  /** A provider module's display name of the model (go-current.md §3). */
  name?: string;
  /** A provider module's `reasoning`: the model thinks (its levels are `thinkingModes`). */
  reasoning?: boolean;
  /** A provider module's `thinking_modes`: the levels the model declares, in declaration order. */
  thinkingModes?: ThinkingMode[];
  /** A provider module's `max_output_tokens` (above 0): the model's own output cap, used when `maxTokens` is not set. */
  maxOutputTokens?: number;
  /** A provider module's per-model overrides of the provider's connection (headers merged key by key over the provider's). */
  overrides?: ModelConnectionOverrides;
}

/** One thinking level a provider module declares for a model (go-current.md §3, §6). */
export interface ThinkingMode {
  level: string;
  /** Anthropic's thinking budget for this level; 0: none sent. */
  maxTokens: number;
}

/** What a module's model may set over its provider's connection. */
export interface ModelConnectionOverrides {
  protocol?: ProtocolName;
  baseUrl?: string;
  sessionHeader?: string;
  headers?: Record<string, string>;
}

/** Where a provider was declared: config.yaml (the older generation), a module of ~/.rienda/providers, or a module inside the binary. */
export type ProviderOrigin = "config" | "module" | "built-in";

/**
 * A `${NAME}` that was not set when the file was loaded. Provider fields
 * that hold one fail only when a model of that provider is resolved, so a
 * key for a provider nobody uses never breaks the others.
 */
export interface UnsetVariable {
  /** Key path of the string that refers to it, e.g. `providers.openai.api_key`. */
  path: string;
  variable: string;
}

/** A `${NAME}` whose value went into a string of the file. */
export interface ExpandedVariable {
  /** Key path of the string, e.g. `mcp_servers.search.url`. */
  path: string;
  variable: string;
  /** What it put there (never empty). */
  value: string;
}

/** One provider after presets are applied. */
export interface ProviderSettings {
  name: string;
  protocol: ProtocolName;
  /** The preset it was built from, when `preset:` was used. */
  preset?: string;
  /** Without trailing slashes; empty for the replay protocol. */
  baseUrl: string;
  apiKey: string;
  headers: Record<string, string>;
  sessionHeader?: string;
  /** Replay protocol only: absolute path of the script. */
  script?: string;
  /** Alias -> settings, in file order. */
  models: ReadonlyMap<string, ModelSettings>;
  /** Variables this provider's fields refer to that were unset at load time. */
  unset: UnsetVariable[];
  /** `timeout`, `idle_timeout`, `retries` as written on the provider (new). */
  timing: RequestTimingSettings;
  /** Where `api_key` comes from. */
  apiKeySource: ApiKeySource;
  /** Absent: config.yaml. */
  origin?: ProviderOrigin;
  /** A module's `auth`: `api_key` needs a key from credentials.json; absent (config.yaml): a key is optional. */
  auth?: "api_key" | "none";
}

/** The `compaction:` block with defaults filled in. */
export interface CompactionSettings {
  enabled: boolean;
  reserveTokens: number;
  keepRecentTokens: number;
  /** `provider/alias` used to summarise; absent: the run's own model. */
  model?: string;
}

/** Settings every MCP server has, whatever its transport (docs/mcp.md). */
interface McpServerBase {
  /** The key under `mcp_servers`; the prefix of its tools' names (`name__tool`). */
  name: string;
  /** How long starting it (process start, `initialize`, `tools/list`) may take. */
  startupTimeoutMs: number;
  /** Variables its fields refer to that were unset at load time: using the server fails then. */
  unset: UnsetVariable[];
  /** Variables its fields took values from: those values are kept out of output like env and header values. */
  expanded: ExpandedVariable[];
}

/** An MCP server Rienda starts as a process and talks to over stdin/stdout. */
export interface McpStdioServerSettings extends McpServerBase {
  transport: "stdio";
  command: string;
  args: string[];
  /** Added to the few variables a server inherits (docs/mcp.md). */
  env: Record<string, string>;
  /** Absolute; absent: the workspace of the run. */
  cwd?: string;
}

/** An MCP server reached over Streamable HTTP. */
export interface McpHttpServerSettings extends McpServerBase {
  transport: "http";
  url: string;
  headers: Record<string, string>;
}

/** One entry of `mcp_servers:`. */
export type McpServerSettings = McpStdioServerSettings | McpHttpServerSettings;

/** The `shell:` block (new): what the built-in `shell` tool's commands do not inherit (docs/security.md). */
export interface ShellSettings {
  /** The variables a `${NAME}` of a provider's `api_key`, `headers` or `base_url` took a value from: hidden unless passed. */
  providerVariables: string[];
  /** `hide_env` as written: names and `*` patterns also hidden. */
  hideEnv: string[];
  /** `pass_env` as written: names and `*` patterns never hidden. */
  passEnv: string[];
}

/** The `subagents:` block with defaults filled in (docs/subagents.md). */
export interface SubagentSettings {
  /** How many levels of subagents may run below the agent of `rienda run`. */
  maxDepth: number;
}

/** A validated configuration file. */
export interface LoadedConfig {
  /** Absolute path of the file that was read. */
  path: string;
  source: ConfigSource;
  /** False when ~/.rienda/config.yaml does not exist (it is optional): the settings are the defaults. */
  present: boolean;
  /** The whole document as parsed, `${NAME}` references left as written; a fresh deep copy on every read (`ctx.config`). */
  readonly document: Record<string, unknown>;
  /** Providers by name, in file order. */
  providers: ReadonlyMap<string, ProviderSettings>;
  compaction: CompactionSettings;
  /** The `mcp_servers:` block by name, in file order (empty when absent). */
  mcpServers: ReadonlyMap<string, McpServerSettings>;
  subagents: SubagentSettings;
  /** The `shell:` block (new) with the provider variables it hides. */
  shell: ShellSettings;
  /** The `limits:` block (new): what every run is bounded by unless its agent or command line says otherwise. */
  limits: LimitSettings;
  /** The `sandbox:` block (new): where the `shell` tool's commands run unless the agent or `--sandbox` says otherwise (docs/security.md). */
  sandbox: SandboxSettings;
  /** The `permissions:` block (new): rules on every agent's tool calls, beside the agent's own (docs/security.md). */
  permissions: readonly PermissionRule[];
  /** The `config:` block, extension name -> settings; a fresh deep copy on every read. */
  readonly extensionConfig: Record<string, Record<string, unknown>>;
  /** Every unset `${NAME}` in the file (for `rienda doctor`). */
  unsetVariables: UnsetVariable[];
  /** Settings that load but do not do what they say, in file order (for `rienda doctor`). */
  warnings: ConfigProblem[];
  /** Settles `provider/alias` (split on the first "/"); throws RiendaError. */
  resolveModel(ref: string): ResolvedModel;
  /** Every `provider/alias` the file declares, in file order. */
  modelRefs(): string[];
}

/** `timeout`, `idle_timeout` and `retries` as written at one level (read-request-timing.ts); absent keys are absent here. */
export interface RequestTimingSettings {
  timeoutMs?: number;
  idleTimeoutMs?: number;
  retries?: number;
}
