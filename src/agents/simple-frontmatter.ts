/**
 * A fast path for the commonest frontmatter: one `key: text` per line, no
 * nesting, quoting, lists or comments. The `yaml` package costs about half a
 * millisecond per small document while the process is still cold, which a
 * run with ten skills pays ten times; these lines it reads in microseconds.
 * Anything this reader is not sure of (a value YAML would read as a number,
 * boolean or null, an indicator character, a repeated key) makes it answer
 * undefined, and the caller parses with `yaml` as before: same results,
 * same errors.
 */

const LINE = /^([A-Za-z][A-Za-z0-9_-]*):[ ]+(\S(?:.*\S)?)[ ]*$/;
// Characters that change the meaning of a plain scalar when it starts with them (YAML 1.2 §5.3).
const INDICATOR_START = /^[-?:,[\]{}#&*!|>'"%@`]/;
// YAML 1.2 core schema scalars that are not strings.
const NOT_TEXT =
  /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;

/** The mapping of `source` when every line is a plain `key: text`; undefined when `yaml` must decide. */
export function readSimpleFrontmatter(source: string): Record<string, string> | undefined {
  const meta: Record<string, string> = {};
  let keys = 0;
  for (const line of source.split("\n")) {
    if (line.trim() === "") continue;
    const match = LINE.exec(line);
    if (!match) return undefined;
    const [, key, value] = match as unknown as [string, string, string];
    if (Object.hasOwn(meta, key) || INDICATOR_START.test(value) || NOT_TEXT.test(value)) return undefined;
    // A comment, a nested mapping on one line, a tab: leave them to yaml.
    if (value.includes(" #") || value.includes(": ") || value.endsWith(":") || value.includes("\t")) return undefined;
    Object.defineProperty(meta, key, { value, enumerable: true, writable: true, configurable: true });
    keys++;
  }
  return keys > 0 ? meta : undefined;
}
