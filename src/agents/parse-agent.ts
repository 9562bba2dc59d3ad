/**
 * Validation of one agent definition. Strict like config.yaml: unknown keys
 * and wrong types are errors, and every problem of the file is reported at
 * once, each line naming the file.
 */
import { isScalar, LineCounter, parseAllDocuments, type Document } from "yaml";
import { RiendaError } from "../errors.ts";
import { splitFrontmatter } from "./split-frontmatter.ts";
import type { Agent } from "./types.ts";

const KEYS = ["description", "model", "tools", "hooks", "config"] as const;
// tools.md "Name rules": the only names a tool or hook directory can have.
const EXTENSION_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Parses the text of `file` as agent `id`. Throws RiendaError (code "agent"), one line per problem. */
export function parseAgent(id: string, text: string, file: string): Agent {
  const problems: string[] = [];
  const fail = (): never => {
    throw new RiendaError("agent", problems.map((p) => `${file}: ${p}`).join("\n"));
  };
  const split = splitFrontmatter(text);
  if (!split.ok) {
    problems.push(split.problem);
    return fail();
  }
  const yaml = parseFrontmatter(split.frontmatter, problems);
  if (!yaml) return fail();
  const { value: meta, doc } = yaml;
  const sourceOf = (path: (string | number)[]): string | undefined => {
    const node = doc.getIn(path, true);
    return isScalar(node) && typeof node.source === "string" ? node.source : undefined;
  };
  // yaml.v3 read a number or boolean written for a string field as its text; so do we.
  const text_ = (value: unknown, path: (string | number)[]): string | undefined => {
    if (typeof value === "string") return value;
    if (typeof value === "number" || typeof value === "boolean") return sourceOf(path) ?? String(value);
    return undefined;
  };

  for (const key of Object.keys(meta)) {
    if (!(KEYS as readonly string[]).includes(key)) problems.push(`unknown key "${key}" in the frontmatter (known keys: ${KEYS.join(", ")})`);
  }

  let description = "";
  if (meta.description === undefined || meta.description === null) {
    problems.push('missing "description" (a non-empty text saying what the agent does)');
  } else {
    const written = text_(meta.description, ["description"]);
    if (written === undefined) problems.push(`description: must be a string, not ${describe(meta.description)}`);
    else if (written.trim() === "") problems.push("description: must not be empty");
    else description = written.trim();
  }

  let model = "";
  if (meta.model === undefined || meta.model === null) {
    problems.push('missing "model" (the model to use, as provider/alias from config.yaml, e.g. openai/gpt-4o)');
  } else {
    const written = text_(meta.model, ["model"])?.trim();
    if (written === undefined) problems.push(`model: must be a string, not ${describe(meta.model)}`);
    else if (!isModelRef(written)) problems.push(`model: must have the form provider/alias (got "${written}")`);
    else model = written;
  }

  const tools = readNames(meta.tools, "tools", "tool", problems, text_);
  const hooks = readNames(meta.hooks, "hooks", "hook", problems, text_);
  const config = readConfig(meta.config, problems);

  if (problems.length > 0) return fail();
  return { id, file, description, model, tools, hooks, config, systemPrompt: split.body.trim() };
}

function parseFrontmatter(source: string, problems: string[]): { value: Record<string, unknown>; doc: Document.Parsed } | undefined {
  const lines = new LineCounter();
  const docs = parseAllDocuments(source, { lineCounter: lines, prettyErrors: false, merge: true, uniqueKeys: true });
  const first = Array.isArray(docs) ? docs[0] : undefined;
  if (!Array.isArray(docs) || !first) {
    problems.push('the frontmatter is empty; "description" and "model" are required');
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
    problems.push(`line ${lines.linePos(docs[1]?.range[0] ?? 0).line + 1}: the frontmatter must hold a single YAML document`);
    return undefined;
  }
  let value: unknown;
  try {
    value = first.toJS({ maxAliasCount: 100 });
  } catch (error) {
    problems.push(`invalid frontmatter: ${(error as Error).message}`);
    return undefined;
  }
  if (value === null || value === undefined) {
    problems.push('the frontmatter is empty; "description" and "model" are required');
    return undefined;
  }
  if (!isPlainObject(value)) {
    problems.push(`the frontmatter must be a mapping of keys (description, model, ...), not ${describe(value)}`);
    return undefined;
  }
  return { value, doc: first };
}

function readNames(
  value: unknown,
  key: "tools" | "hooks",
  kind: string,
  problems: string[],
  text: (value: unknown, path: (string | number)[]) => string | undefined,
): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.push(`${key}: must be a list of ${kind} names, not ${describe(value)}`);
    return [];
  }
  const names: string[] = [];
  value.forEach((item, i) => {
    const name = text(item, [key, i])?.trim();
    if (name === undefined) problems.push(`${key}[${i}]: must be a ${kind} name, not ${describe(item)}`);
    else if (!EXTENSION_NAME.test(name)) problems.push(`${key}[${i}]: "${name}" is not a valid ${kind} name (1 to 64 letters, digits, "_" or "-")`);
    else if (names.includes(name)) problems.push(`${key}[${i}]: "${name}" is listed twice`);
    else names.push(name);
  });
  return names;
}

function readConfig(value: unknown, problems: string[]): Record<string, Record<string, unknown>> {
  const config: Record<string, Record<string, unknown>> = {};
  if (value === undefined || value === null) return config;
  if (!isPlainObject(value)) {
    problems.push(`config: must be a mapping of extension name to settings, not ${describe(value)}`);
    return config;
  }
  for (const [name, settings] of Object.entries(value)) {
    if (isPlainObject(settings)) {
      Object.defineProperty(config, name, { value: settings, enumerable: true, writable: true, configurable: true });
    } else {
      problems.push(`config.${name}: must be a mapping of settings for the extension "${name}" (write {} for none), not ${describe(settings)}`);
    }
  }
  return config;
}

function isModelRef(ref: string): boolean {
  const slash = ref.indexOf("/");
  return slash > 0 && ref.slice(0, slash).trim() !== "" && ref.slice(slash + 1).trim() !== "";
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return `a string (${JSON.stringify(value)})`;
  if (typeof value === "number") return `a number (${value})`;
  if (typeof value === "boolean") return `a boolean (${value})`;
  if (value !== null && typeof value === "object") return "a mapping";
  return "empty";
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
