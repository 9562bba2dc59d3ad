/**
 * Where a provider's `api_key` comes from: not set, written in the file, or
 * the `${NAME}` variables it names and whether each was set, empty or
 * unset. A refused key (HTTP 401/403) then says what to fix instead of
 * only "check the key".
 */
import type { ApiKeySource } from "../providers/types.ts";
import type { ConfigReader } from "./config-reader.ts";
import { formatKeyPath, type KeyPath } from "./key-path.ts";

/** `${NAME}` or `${NAME:-fallback}`, not preceded by the `$` that escapes it. */
const REFERENCE = /(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}/g;

export function readApiKeySource(
  reader: ConfigReader,
  map: Record<string, unknown>,
  providerPath: KeyPath,
): ApiKeySource {
  const at = [...providerPath, "api_key"];
  const path = formatKeyPath(at);
  if (map.api_key === null || map.api_key === undefined) return { kind: "absent", path };
  const written = reader.written(at) ?? String(map.api_key);
  const names = [...new Set([...written.matchAll(REFERENCE)].map((match) => match[1] as string))];
  if (names.length === 0) return { kind: "written", path };
  const unset = new Set(reader.unsetUnder(at).map((u) => u.variable));
  const set = new Set(reader.expandedUnder(at).map((e) => e.variable));
  return {
    kind: "variables",
    path,
    variables: names.map((name) => ({ name, state: set.has(name) ? "set" : unset.has(name) ? "unset" : "empty" })),
  };
}
