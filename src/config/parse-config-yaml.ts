/**
 * Turns the text of config.yaml into plain data. Syntax errors carry a line
 * and column; a stream of several documents is refused, as the Go original
 * did, because only the first would silently count.
 */
import { isMap, isScalar, LineCounter, parseAllDocuments } from "yaml";
import { readGoIntegers } from "../go-yaml.ts";
import { ConfigError } from "./config-error.ts";
import type { KeyPath } from "./key-path.ts";

/** A parsed, non-empty file. */
export interface ParsedConfigYaml {
  value: unknown;
  /** The text a scalar was written as (`0123`, `1.10`), to read a number as a string exactly. */
  sourceOf(path: KeyPath): string | undefined;
  /** The keys of the mapping at `path` in file order (plain objects put "10" before "a"). */
  keyOrder(path: KeyPath): string[];
  /** The line of the value at `path`, or of its nearest ancestor that exists. */
  lineOf(path: KeyPath): number | undefined;
}

/** Parses `text`; `undefined` when the file holds no data at all (empty, comments, a bare `---`). */
export function parseConfigYaml(text: string, file: string): ParsedConfigYaml | undefined {
  const lines = new LineCounter();
  // Merge keys (`<<: *defaults`) are on because Go's yaml.v3 accepted them.
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const docs = parseAllDocuments(source, {
    lineCounter: lines,
    prettyErrors: false,
    merge: true,
    uniqueKeys: true,
  });
  if (!Array.isArray(docs)) return undefined;
  for (const doc of docs) {
    const error = doc.errors[0];
    if (error) {
      const { line, col } = lines.linePos(error.pos[0]);
      throw new ConfigError([
        {
          file,
          path: "",
          message: `line ${line}, column ${col}: ${describeYamlError(error.code, error.message, source.slice(error.pos[0]))}`,
        },
      ]);
    }
  }
  const first = docs[0];
  if (!first) return undefined;
  const extra = docs.slice(1).find((doc) => !isEmptyDocument(doc.contents));
  if (extra) {
    const { line } = lines.linePos(extra.range[0]);
    throw new ConfigError([
      { file, path: "", message: `line ${line}: a second YAML document starts here; the file must hold exactly one` },
    ]);
  }
  if (isEmptyDocument(first.contents)) return undefined;
  readGoIntegers(first);
  let value: unknown;
  try {
    value = first.toJS({ maxAliasCount: 100 });
  } catch (cause) {
    // toJS throws only on alias abuse (a "billion laughs" file).
    throw new ConfigError([{ file, path: "", message: `cannot be read: ${(cause as Error).message}` }], { cause });
  }
  return {
    value,
    sourceOf(path) {
      const node = first.getIn(path, true);
      return isScalar(node) && typeof node.source === "string" ? node.source : undefined;
    },
    keyOrder(path) {
      const node = path.length === 0 ? first.contents : first.getIn(path, true);
      if (!isMap(node)) return [];
      return node.items.map((pair) => (isScalar(pair.key) ? String(pair.key.value) : String(pair.key)));
    },
    lineOf(path) {
      for (let n = path.length; n > 0; n--) {
        const node = first.getIn(path.slice(0, n), true) as { range?: [number, number, number] } | undefined;
        if (node?.range) return lines.linePos(node.range[0]).line;
      }
      return undefined;
    },
  };
}

function isEmptyDocument(contents: unknown): boolean {
  return contents === null || (isScalar(contents) && contents.value === null);
}

function describeYamlError(code: string, message: string, rest: string): string {
  if (code === "DUPLICATE_KEY") {
    const key = rest.split(/[:\n]/, 1)[0]?.trim() ?? "";
    return `duplicate key ${JSON.stringify(key)} (a key may appear once per mapping)`;
  }
  if (code === "TAB_AS_INDENT") return "tabs are not allowed as indentation; use spaces";
  return message.charAt(0).toLowerCase() + message.slice(1);
}
