/** Validation of the whole document: top-level keys, providers, compaction, the `config` block. */
import type { ConfigReader } from "./config-reader.ts";
import { describeYamlValue, isPlainObject } from "../values.ts";
import { splitModelRef } from "./split-model-ref.ts";
import type {
  CompactionSettings,
  McpServerSettings,
  ProviderSettings,
  ShellSettings,
  SubagentSettings,
} from "./types.ts";
import { validateMcpServers } from "./validate-mcp-servers.ts";
import { LIMIT_KEYS, readLimit, type LimitSettings } from "../limits/index.ts";
import { validateProvider, type PathBase } from "./validate-provider.ts";
import { readShell } from "./validate-shell.ts";
import { readSafety } from "./validate-safety.ts";
import type { PermissionRule } from "../permissions/index.ts";
import type { SandboxSettings } from "../sandbox/index.ts";

const TOP_KEYS = [
  "providers",
  "compaction",
  "subagents",
  "limits",
  "config",
  "mcp_servers",
  "shell",
  "sandbox",
  "permissions",
] as const;
const SUBAGENT_KEYS = ["max_depth"] as const;

/** Subagent settings of a file that declares none: a subagent's subagent's subagent may run, one more may not. */
export const DEFAULT_SUBAGENTS: Readonly<SubagentSettings> = Object.freeze({ maxDepth: 3 });
const COMPACTION_KEYS = ["enabled", "reserve_tokens", "keep_recent_tokens", "model"] as const;

/** Compaction settings of a file that declares none (the Go original's defaults). */
export const DEFAULT_COMPACTION: Readonly<CompactionSettings> = Object.freeze({
  enabled: true,
  reserveTokens: 16384,
  keepRecentTokens: 20000,
});

/** The typed parts of a valid file. */
export interface ValidatedConfig {
  providers: Map<string, ProviderSettings>;
  compaction: CompactionSettings;
  subagents: SubagentSettings;
  /** `limits:` (new): defaults of every run's limits. */
  limits: LimitSettings;
  extensionConfig: Record<string, Record<string, unknown>>;
  mcpServers: Map<string, McpServerSettings>;
  shell: ShellSettings;
  sandbox: SandboxSettings;
  permissions: PermissionRule[];
}

/** Validates the expanded document; the result is only meaningful when `reader.problems` is empty. */
export function validateConfig(reader: ConfigReader, document: unknown, base: PathBase): ValidatedConfig {
  const providers = new Map<string, ProviderSettings>();
  const result: ValidatedConfig = {
    providers,
    compaction: { ...DEFAULT_COMPACTION },
    subagents: { ...DEFAULT_SUBAGENTS },
    limits: {},
    extensionConfig: {},
    mcpServers: new Map(),
    shell: { providerVariables: [], hideEnv: [], passEnv: [] },
    sandbox: {},
    permissions: [],
  };
  if (!isPlainObject(document)) {
    reader.problem(
      [],
      `must be a mapping of settings (providers, compaction, config, ...) at the top, not ${describeYamlValue(document)}`,
    );
    return result;
  }
  reader.knownKeys(document, TOP_KEYS, []);

  // Optional (go-current.md §2): the current generation declares providers as modules of ~/.rienda/providers.
  // Written but empty is still refused (contract.md §2): it says "providers here" and gives none.
  const written = reader.mapping(document.providers, ["providers"]);
  if (written && document.providers !== undefined && Object.keys(written).length === 0) {
    reader.problem(
      ["providers"],
      "at least one provider is required when the block is written (remove it to use provider modules only)",
    );
  }
  let providerProblems = false;
  for (const [name, value] of reader.entries(written ?? {}, ["providers"])) {
    const provider = validateProvider(reader, name, value, base);
    if (provider) providers.set(name, provider);
    else providerProblems = true;
  }

  result.compaction = readCompaction(reader, document.compaction, providers, providerProblems || !written);
  result.subagents = readSubagents(reader, document.subagents);
  result.limits = readLimits(reader, document.limits);
  result.extensionConfig = readExtensionConfig(reader, document.config);
  result.mcpServers = validateMcpServers(reader, document.mcp_servers, base);
  result.shell = readShell(reader, document.shell);
  Object.assign(result, readSafety(reader, document));
  return result;
}

function readLimits(reader: ConfigReader, value: unknown): LimitSettings {
  const path = ["limits"];
  const limits: LimitSettings = {};
  const map = reader.mapping(value, path);
  if (!map) return limits;
  reader.knownKeys(map, LIMIT_KEYS, path);
  for (const key of LIMIT_KEYS) {
    if (map[key] === undefined || map[key] === null) continue;
    const problem = readLimit(limits, key, map[key]);
    if (problem) reader.problem([...path, key], problem);
  }
  return limits;
}

function readSubagents(reader: ConfigReader, value: unknown): SubagentSettings {
  const path = ["subagents"];
  const settings: SubagentSettings = { ...DEFAULT_SUBAGENTS };
  const map = reader.mapping(value, path);
  if (!map) return settings;
  reader.knownKeys(map, SUBAGENT_KEYS, path);
  settings.maxDepth = reader.nonNegativeInteger(map, "max_depth", path) ?? settings.maxDepth;
  return settings;
}

function readCompaction(
  reader: ConfigReader,
  value: unknown,
  providers: Map<string, ProviderSettings>,
  providersIncomplete: boolean,
): CompactionSettings {
  const path = ["compaction"];
  const compaction: CompactionSettings = { ...DEFAULT_COMPACTION };
  const map = reader.mapping(value, path);
  if (!map) return compaction;
  reader.knownKeys(map, COMPACTION_KEYS, path);
  compaction.enabled = reader.boolean(map, "enabled", path) ?? compaction.enabled;
  compaction.reserveTokens = reader.nonNegativeInteger(map, "reserve_tokens", path) ?? compaction.reserveTokens;
  compaction.keepRecentTokens =
    reader.nonNegativeInteger(map, "keep_recent_tokens", path) ?? compaction.keepRecentTokens;
  const model = reader.string(map, "model", path)?.trim();
  if (model) {
    const at = [...path, "model"];
    const ref = splitModelRef(model);
    if (!ref) {
      reader.problem(at, `must have the form provider/alias (got "${model}")`);
    } else if (!providersIncomplete) {
      // Existence is checked only when every provider validated, so one mistake is not reported twice.
      // A provider config.yaml does not declare may be a provider module: the run resolves it then.
      const provider = providers.get(ref.provider);
      if (provider && !provider.models.has(ref.alias))
        reader.problem(at, `unknown model "${ref.alias}" in provider "${ref.provider}"`);
    }
    compaction.model = model;
  }
  return compaction;
}

function readExtensionConfig(reader: ConfigReader, value: unknown): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  const map = reader.mapping(value, ["config"]);
  if (!map) return out;
  for (const [name, written] of Object.entries(map)) {
    // `name:` with nothing after it loaded in the Go original (a nil map): no settings.
    const settings = written === null ? {} : written;
    if (isPlainObject(settings)) {
      Object.defineProperty(out, name, { value: settings, enumerable: true, writable: true, configurable: true });
    } else {
      reader.problem(
        ["config", name],
        `must be a mapping of settings for the extension "${name}" (write {} for none), not ${describeYamlValue(settings)}`,
      );
    }
  }
  return out;
}
