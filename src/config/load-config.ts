/** Reading, validating and wrapping config.yaml. */
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { ConfigError } from "./config-error.ts";
import { ConfigReader } from "./config-reader.ts";
import { expandDocument } from "./expand-document.ts";
import { locateConfig } from "./locate-config.ts";
import { parseConfigYaml } from "./parse-config-yaml.ts";
import { resolveModel } from "./resolve-model.ts";
import type { ConfigLocation, ConfigSource, LoadConfigOptions, LoadedConfig } from "./types.ts";
import { validateConfig } from "./validate-config.ts";

/**
 * Locates, reads and validates the configuration. Throws ConfigError (a RiendaError).
 * `~/.rienda/config.yaml` is optional (go-current.md §2): without it the
 * configuration is empty and providers come from modules; a file named by
 * `--config` or RIENDA_CONFIG must exist.
 */
export function loadConfig(options: LoadConfigOptions): LoadedConfig {
  const location = locateConfig(options);
  const text = readConfigFile(location);
  const parse = { ...location, env: options.env, home: options.home };
  // Without the file, the settings are the defaults (the text of an empty mapping).
  return text === undefined ? { ...parseConfig("{}", parse), present: false } : parseConfig(text, parse);
}

/** Inputs of `parseConfig`: where the text came from and what expands it. */
export interface ParseConfigOptions {
  path: string;
  /** Default "home". */
  source?: ConfigSource;
  env: Readonly<Record<string, string | undefined>>;
  home: string;
}

/** Validates config text already read from `options.path` (used by tests and `rienda doctor`). */
export function parseConfig(text: string, options: ParseConfigOptions): LoadedConfig {
  const file = options.path;
  const parsed = parseConfigYaml(text, file);
  if (!parsed) {
    // Strict (contract.md §2): a file that exists says something; only a missing one means the defaults.
    throw new ConfigError([
      {
        file,
        path: "",
        message: `the file is empty; write its settings (docs/config.md shows them, "rienda init" writes a starter file), or remove it: config.yaml is optional`,
      },
    ]);
  }
  const expanded = expandDocument(parsed.value, options.env);
  const reader = new ConfigReader(
    file,
    parsed.sourceOf,
    parsed.keyOrder,
    parsed.lineOf,
    expanded.unset,
    expanded.expanded,
  );
  for (const m of expanded.malformed) reader.problem(m.path, m.message);
  const valid = validateConfig(reader, expanded.value, { configDir: dirname(file), home: options.home });
  if (reader.problems.length > 0) throw new ConfigError(reader.sortedProblems());

  // As parsed, `${…}` and all (contract.md: "the whole parsed document").
  const document = parsed.value as Record<string, unknown>;
  const { providers, compaction, subagents, limits, extensionConfig, mcpServers, shell, sandbox, permissions } = valid;
  return {
    path: file,
    source: options.source ?? "home",
    present: true,
    get document() {
      return structuredClone(document);
    },
    providers,
    compaction,
    mcpServers,
    subagents,
    shell,
    limits,
    sandbox,
    permissions,
    get extensionConfig() {
      return structuredClone(extensionConfig);
    },
    unsetVariables: expanded.unset,
    warnings: [...reader.warnings].sort((a, b) => (a.line ?? 0) - (b.line ?? 0)),
    resolveModel: (ref) => resolveModel(providers, file, ref),
    modelRefs: () => [...providers.values()].flatMap((p) => [...p.models.keys()].map((alias) => `${p.name}/${alias}`)),
  };
}

/** The file's text; undefined when the default file does not exist; else a ConfigError saying why it cannot be read. */
function readConfigFile(location: ConfigLocation): string | undefined {
  const file = location.path;
  try {
    return readFileSync(file, "utf8");
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if ((code === "ENOENT" || code === "ENOTDIR") && location.source === "home") return undefined;
    let message: string;
    if (code === "ENOENT" || code === "ENOTDIR") message = missingMessage(location);
    else if (code === "EISDIR") message = "is a directory, not a configuration file";
    else if (code === "EACCES" || code === "EPERM") message = "cannot be read: permission denied";
    else message = `cannot be read: ${(cause as Error).message}`;
    throw new ConfigError([{ file, path: "", message }], { cause });
  }
}

function missingMessage(location: ConfigLocation): string {
  const given =
    location.source === "flag"
      ? " (given with --config)"
      : location.source === "env"
        ? " (given by RIENDA_CONFIG)"
        : "";
  return (
    `no configuration file here${given}. Run "rienda init" to create ~/.rienda with a starter config.yaml, ` +
    `or write one by hand (see docs/config.md)`
  );
}
