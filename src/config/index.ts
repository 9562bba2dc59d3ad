/**
 * config.yaml (contract.md §1-§2): locating it, strict validation, presets,
 * `${NAME}` expansion, and resolving `provider/alias` into a ResolvedModel.
 *
 * Invariants: every failure is a RiendaError naming the file and the key
 * path; an unset `${NAME}` fails only when the provider using it is resolved;
 * `document` and `extensionConfig` hand out fresh copies, so no caller can
 * alter what another sees. Reads the file it is pointed at and nothing else:
 * no network, no work at import time, no process globals (env and home are
 * parameters).
 */
export { ConfigError, type ConfigProblem } from "./config-error.ts";
export { expandEnv, type Expansion } from "./expand-env.ts";
export { loadConfig, parseConfig, type ParseConfigOptions } from "./load-config.ts";
export { formatKeyPath, type KeyPath } from "./key-path.ts";
export { locateConfig } from "./locate-config.ts";
export { findPreset, PRESETS, PROTOCOLS } from "./presets.ts";
export { splitModelRef, type ModelRef } from "./split-model-ref.ts";
export { resolveProviderModel } from "./resolve-model.ts";
export { DEFAULT_COMPACTION } from "./validate-config.ts";
export { DEFAULT_MCP_STARTUP_TIMEOUT_MS } from "./validate-mcp-servers.ts";
export type {
  CompactionSettings,
  SubagentSettings,
  ConfigLocation,
  ConfigSource,
  LoadConfigOptions,
  LoadedConfig,
  McpHttpServerSettings,
  McpServerSettings,
  McpStdioServerSettings,
  ModelConnectionOverrides,
  ModelSettings,
  Preset,
  ProviderOrigin,
  ProviderSettings,
  ShellSettings,
  ThinkingMode,
  UnsetVariable,
} from "./types.ts";
