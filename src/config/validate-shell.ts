/**
 * The `shell:` block (new): which environment variables the built-in
 * `shell` tool's commands do not inherit. By default those that feed the
 * providers' keys (a `${NAME}` in a provider's `api_key`, `headers` or
 * `base_url`); `hide_env` adds names or patterns (`*_TOKEN`), `pass_env`
 * puts names back (docs/security.md).
 */
import type { ConfigReader } from "./config-reader.ts";
import type { KeyPath } from "./key-path.ts";
import type { ShellSettings } from "./types.ts";

const SHELL_KEYS = ["hide_env", "pass_env"] as const;

/** A variable name, or a pattern of one with `*` (any run of characters). */
const NAME_PATTERN = /^[A-Za-z_*][A-Za-z0-9_*]*$/;

/** The provider fields whose `${NAME}`s count as a provider's key. */
const KEY_FIELDS = /\.(api_key|base_url)$|\.headers\./;

/** The block with its defaults; `reader` gets a problem for each bad entry. */
export function readShell(reader: ConfigReader, value: unknown): ShellSettings {
  const path: KeyPath = ["shell"];
  const providerVariables = [
    ...new Set(
      reader
        .expandedUnder(["providers"])
        .filter((v) => KEY_FIELDS.test(v.path))
        .map((v) => v.variable),
    ),
  ];
  const settings: ShellSettings = { providerVariables, hideEnv: [], passEnv: [] };
  const map = reader.mapping(value, path);
  if (!map) return settings;
  reader.knownKeys(map, SHELL_KEYS, path);
  settings.hideEnv = names(reader, map.hide_env, [...path, "hide_env"]);
  settings.passEnv = names(reader, map.pass_env, [...path, "pass_env"]);
  return settings;
}

function names(reader: ConfigReader, value: unknown, path: KeyPath): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    reader.problem(path, 'must be a list of variable names or patterns, e.g. ["*_TOKEN", "AWS_SECRET_ACCESS_KEY"]');
    return [];
  }
  const out: string[] = [];
  for (const [i, entry] of value.entries()) {
    if (typeof entry === "string" && NAME_PATTERN.test(entry)) out.push(entry);
    else
      reader.problem(
        [...path, i],
        `must be a variable name or a pattern of one with * (letters, digits, "_" and "*"), not ${JSON.stringify(entry)}`,
      );
  }
  return out;
}
