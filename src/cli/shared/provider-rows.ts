/**
 * What `rienda auth` and `rienda doctor` say about each provider's key: one
 * row per provider, from the roster's state and what credentials.json holds
 * now (the screen stores and removes keys while it is open, so the key is
 * worked out again from the file, not taken from the roster's first read).
 * Never holds a key itself.
 */
import type { ProviderOrigin } from "../../config/index.ts";
import type { KeyState, ProviderListing, ProviderState } from "../../roster/index.ts";

/** One provider as the key commands show it. */
export interface ProviderRow {
  name: string;
  origin: ProviderOrigin;
  /** config.yaml, or the module's index.js. */
  source: string;
  /** Where the key comes from; undefined while the module is evaluated, or when it failed. */
  key?: KeyState;
  /** A run can authenticate: a key is there, or none is needed. */
  ready: boolean;
  /** Models offered; undefined while the module is evaluated, or when it failed. */
  models?: number;
  /** The module's `provider "<name>": <reason>` line, or why config.yaml's key is empty. */
  problem?: string;
  /** In short, why config.yaml's `api_key` is empty: `OPENAI_API_KEY is not set`, or `empty`. */
  emptyKey?: string;
  /** The module's `auth: none`, or the replay protocol: a key would not be sent. */
  needsNoKey: boolean;
}

/** A provider whose module has not answered yet. */
export function pendingRow(listing: ProviderListing): ProviderRow {
  return { name: listing.name, origin: listing.origin, source: listing.source, ready: false, needsNoKey: false };
}

/** The row of a settled provider; `stored` says whether credentials.json holds a key of that name now. */
export function providerRow(state: ProviderState, stored: (provider: string) => boolean): ProviderRow {
  const { listing } = state;
  const base = { name: listing.name, origin: listing.origin, source: listing.source };
  if (state.kind === "failed") return { ...base, ready: false, problem: state.problem, needsNoKey: false };
  const models = state.settings.models.size;
  // A replay provider answers from a file: no key is ever sent.
  const needsNoKey = state.settings.auth === "none" || state.settings.protocol === "replay";
  if (state.key === "config") {
    const empty = emptyConfigKey(state.settings);
    if (empty === undefined) return { ...base, key: "config", ready: true, models, needsNoKey };
    const problem = `${state.settings.apiKeySource.path} in config.yaml is empty${empty === "empty" ? "" : `: ${empty}`}`;
    return { ...base, key: "config", ready: false, models, needsNoKey, problem, emptyKey: empty };
  }
  const key: KeyState = needsNoKey
    ? "not needed"
    : stored(listing.name)
      ? "credentials"
      : state.settings.auth === "api_key"
        ? "missing"
        : "not needed";
  return { ...base, key, ready: key !== "missing", models, needsNoKey };
}

/** Why config.yaml's `api_key` gives no key (`OPENAI_API_KEY is not set`; `empty` for an empty value), or undefined when it gives one. */
function emptyConfigKey(settings: Extract<ProviderState, { kind: "ready" }>["settings"]): string | undefined {
  if (settings.apiKey !== "") return undefined;
  const source = settings.apiKeySource;
  const unset =
    source.kind === "variables"
      ? source.variables
          .filter((v) => v.state !== "set")
          .map((v) => `${v.name} is ${v.state === "empty" ? "empty" : "not set"}`)
      : [];
  return unset.length > 0 ? unset.join(", ") : "empty";
}

/** `✓` ready, `—` no key, `!` the module fails, `…` not evaluated yet. */
export function rowMark(row: ProviderRow): string {
  if (row.problem !== undefined && row.key === undefined) return "!";
  if (row.key === undefined) return "…";
  return row.ready ? "✓" : "—";
}

/** Where the key comes from, in words: `config.yaml`, `credentials.json`, `not needed`, `missing`. */
export function keyWords(row: ProviderRow): string {
  switch (row.key) {
    case "config":
      return "config.yaml";
    case "credentials":
      return "credentials.json";
    case "not needed":
    case "missing":
      return row.key;
    default:
      return "-";
  }
}

/** `1 model`, `12 models`, or `-` when unknown. */
export function modelCount(row: ProviderRow): string {
  if (row.models === undefined) return "-";
  return `${row.models} model${row.models === 1 ? "" : "s"}`;
}

/** One provider in JSON (auth list --json, doctor --json): `{name, origin, source, key, ready, models, problem}`, absent values null. */
export function rowJson(row: ProviderRow): Record<string, unknown> {
  return {
    name: row.name,
    origin: row.origin,
    source: row.source,
    key: row.key ?? null,
    ready: row.ready,
    models: row.models ?? null,
    problem: row.problem ?? null,
  };
}
