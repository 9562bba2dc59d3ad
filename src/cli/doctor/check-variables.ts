/**
 * Unset `${NAME}` references of config.yaml. One a run needs (it sits in the
 * provider of a model an agent or compaction uses) is a problem; any other
 * is a warning, so that a key for a provider nobody uses never makes a
 * setup unhealthy.
 */
import { formatKeyPath, type LoadedConfig, type ProviderSettings, type UnsetVariable } from "../../config/index.ts";
import type { ModelUser } from "./model-users.ts";
import { usersOfProvider } from "./model-users.ts";
import type { Finding } from "./types.ts";

/** One finding per unset reference, in file order. */
export function checkVariables(
  config: Pick<LoadedConfig, "path" | "providers" | "unsetVariables">,
  users: readonly ModelUser[],
): Finding[] {
  return config.unsetVariables.map((unset) => {
    const provider = [...config.providers.values()].find((p) =>
      p.unset.some((u) => u.path === unset.path && u.variable === unset.variable),
    );
    const base = { check: "config" as const, file: config.path, key: unset.path, name: unset.variable };
    const name = unset.variable;
    if (!provider) {
      return {
        ...base,
        severity: "warning" as const,
        message: `environment variable ${name} is not set, so this value is empty`,
        hint: `set ${name}, or write \${${name}:-} if an empty value is what you mean`,
      };
    }
    const needing = usersOfProvider(users, provider).filter((u) => needs(unset, provider, u.alias));
    if (needing.length > 0) {
      const who = needing.map((u) => `${u.label} (${u.ref})`).join(", ");
      return {
        ...base,
        severity: "problem" as const,
        message: `environment variable ${name} is not set, and ${who} ${needing.length === 1 ? "needs" : "need"} it`,
        hint: `set ${name} (export ${name}=...) before running, or give ${needing.map((u) => u.label).join(" and ")} a model of another provider`,
      };
    }
    return {
      ...base,
      severity: "warning" as const,
      message: `environment variable ${name} is not set; nothing uses ${scopeOf(unset, provider)} yet`,
      hint: `set ${name} before using ${provider.name}, or remove the provider "${provider.name}" from ${config.path}`,
    };
  });
}

/**
 * Whether resolving `provider/alias` needs this variable: provider-level
 * fields always do; a field under `models` only for its own alias. Mirrors
 * config's resolveModel, which is what a run calls.
 */
export function needs(unset: UnsetVariable, provider: ProviderSettings, alias: string): boolean {
  const models = formatKeyPath(["providers", provider.name, "models"]);
  if (!isUnder(unset.path, models)) return true;
  const own = formatKeyPath(["providers", provider.name, "models", alias]);
  return unset.path === own || isUnder(unset.path, own);
}

/** `provider "openai"`, or `model "openai/o3"` for a field of one model. */
function scopeOf(unset: UnsetVariable, provider: ProviderSettings): string {
  const alias = [...provider.models.keys()].find((a) => {
    const own = formatKeyPath(["providers", provider.name, "models", a]);
    return unset.path === own || isUnder(unset.path, own);
  });
  return alias === undefined ? `provider "${provider.name}"` : `model "${provider.name}/${alias}"`;
}

function isUnder(path: string, prefix: string): boolean {
  return path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`);
}
