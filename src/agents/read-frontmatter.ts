/**
 * Reading the YAML frontmatter of a Markdown definition file (an agent, a
 * skill): the layout, the YAML itself (duplicate keys, several documents,
 * syntax errors with the file's line and column) and a mapping at the top.
 * What the keys mean is left to the caller.
 */
import { isScalar, LineCounter, parseAllDocuments, type Document } from "yaml";
import { readGoIntegers } from "../go-yaml.ts";
import { describeYamlValue, isRecord } from "../values.ts";
import { readSimpleFrontmatter } from "./simple-frontmatter.ts";
import { splitFrontmatter, type FileLayout } from "./split-frontmatter.ts";

/** A frontmatter that parsed, with a way to read a scalar as it was written. */
export interface Frontmatter {
  /** The mapping at the top of the frontmatter. */
  meta: Record<string, unknown>;
  /** The Markdown after the closing `---` line (not trimmed). */
  body: string;
  /**
   * `value` as text: a string as is, a number or boolean as written in the
   * file (yaml.v3, which the Go version used, read them that way); undefined
   * for anything else. `path` locates the value in the document.
   */
  text(value: unknown, path: (string | number)[]): string | undefined;
}

/**
 * Splits `text` and parses its frontmatter. `layout` names the keys the
 * file must have, for the messages about a missing, empty or misshapen
 * frontmatter. Problems are returned without the file name; the caller
 * prefixes it.
 */
export function readFrontmatter(
  text: string,
  layout: FileLayout,
): { ok: true; value: Frontmatter } | { ok: false; problems: string[] } {
  const { required } = layout;
  const split = splitFrontmatter(text, layout);
  if (!split.ok) return { ok: false, problems: [split.problem] };
  const simple = readSimpleFrontmatter(split.frontmatter);
  if (simple)
    return {
      ok: true,
      value: { meta: simple, body: split.body, text: (value) => (typeof value === "string" ? value : undefined) },
    };
  const problems: string[] = [];
  const parsed = parseYaml(split.frontmatter, problems, required);
  if (!parsed) return { ok: false, problems };
  const { value: meta, doc } = parsed;
  const sourceOf = (path: (string | number)[]): string | undefined => {
    const node = doc.getIn(path, true);
    return isScalar(node) && typeof node.source === "string" ? node.source : undefined;
  };
  return {
    ok: true,
    value: {
      meta,
      body: split.body,
      text(value, path) {
        if (typeof value === "string") return value;
        if (typeof value === "number" || typeof value === "boolean") return sourceOf(path) ?? String(value);
        return undefined;
      },
    },
  };
}

function parseYaml(
  source: string,
  problems: string[],
  required: readonly string[],
): { value: Record<string, unknown>; doc: Document.Parsed } | undefined {
  const lines = new LineCounter();
  const docs = parseAllDocuments(source, { lineCounter: lines, prettyErrors: false, merge: true, uniqueKeys: true });
  const first = Array.isArray(docs) ? docs[0] : undefined;
  const empty = `the frontmatter is empty; ${quoteList(required)} ${required.length === 1 ? "is" : "are"} required`;
  if (!Array.isArray(docs) || !first) {
    problems.push(empty);
    return undefined;
  }
  for (const doc of docs) {
    const error = doc.errors[0];
    if (error) {
      const { line, col } = lines.linePos(error.pos[0]);
      // +1: the frontmatter starts on the file's second line.
      const what =
        error.code === "DUPLICATE_KEY"
          ? `duplicate key ${JSON.stringify(source.slice(error.pos[0]).split(/[:\n]/, 1)[0]?.trim() ?? "")}`
          : lowerFirst(error.message);
      problems.push(`line ${line + 1}, column ${col}: invalid frontmatter: ${what}`);
      return undefined;
    }
  }
  if (docs.length > 1) {
    problems.push(
      `line ${lines.linePos(docs[1]?.range[0] ?? 0).line + 1}: the frontmatter must hold a single YAML document`,
    );
    return undefined;
  }
  readGoIntegers(first);
  let value: unknown;
  try {
    value = first.toJS({ maxAliasCount: 100 });
  } catch (error) {
    problems.push(`invalid frontmatter: ${(error as Error).message}`);
    return undefined;
  }
  if (value === null || value === undefined) {
    problems.push(empty);
    return undefined;
  }
  if (!isRecord(value)) {
    problems.push(
      `the frontmatter must be a mapping of keys (${required.join(", ")}, ...), not ${describeYamlValue(value)}`,
    );
    return undefined;
  }
  return { value, doc: first };
}

function quoteList(keys: readonly string[]): string {
  const quoted = keys.map((k) => `"${k}"`);
  return quoted.length <= 1 ? (quoted[0] ?? "") : `${quoted.slice(0, -1).join(", ")} and ${quoted[quoted.length - 1]}`;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
