/**
 * Applies `${NAME}` expansion to the string values Rienda itself reads
 * (providers, compaction, subagents, mcp_servers; keys are never
 * expanded): the result is what validation reads. The `config` block, the
 * extensions' own settings, is left as written: contract.md promises the
 * expansion for `api_key`, a config.yaml written for the Go version must
 * work unchanged (its settings may hold `${` as text), and `ctx.config` is
 * the document as parsed, so no secret expanded into it reaches every tool.
 */
import { expandEnv } from "./expand-env.ts";
import { formatKeyPath } from "./key-path.ts";
import type { ExpandedVariable, UnsetVariable } from "./types.ts";
import { isPlainObject } from "../values.ts";

/** The expanded document, the variables that were unset, and malformed references. */
export interface ExpandedDocument {
  value: unknown;
  unset: UnsetVariable[];
  /** Every variable whose value went into a string, where. */
  expanded: ExpandedVariable[];
  malformed: { path: (string | number)[]; message: string }[];
}

/** The top-level key whose values are never expanded: the extensions' settings. */
const LITERAL_BLOCK = "config";

/** Returns a new tree; `value` is not modified. */
export function expandDocument(value: unknown, env: Readonly<Record<string, string | undefined>>): ExpandedDocument {
  const unset: UnsetVariable[] = [];
  const expanded: ExpandedVariable[] = [];
  const malformed: { path: (string | number)[]; message: string }[] = [];
  const walk = (node: unknown, path: (string | number)[]): unknown => {
    if (typeof node === "string") {
      const expansion = expandEnv(node, env);
      if (!expansion.ok) {
        malformed.push({ path, message: expansion.problem });
        return node;
      }
      for (const variable of expansion.unset) unset.push({ path: formatKeyPath(path), variable });
      for (const variable of expansion.used)
        expanded.push({ path: formatKeyPath(path), variable, value: env[variable] ?? "" });
      return expansion.value;
    }
    if (Array.isArray(node)) return node.map((item, i) => walk(item, [...path, i]));
    if (isPlainObject(node)) {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(node)) {
        const literal = path.length === 0 && key === LITERAL_BLOCK;
        // defineProperty: a key named "__proto__" stays an ordinary key.
        Object.defineProperty(out, key, {
          value: literal ? item : walk(item, [...path, key]),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    return node;
  };
  return { value: walk(value, []), unset, expanded, malformed };
}
