/**
 * How `--schema` asks a model for an answer in a shape (docs/pipelines.md):
 * natively where the protocol and the server have structured outputs, else
 * as a call of a final tool whose parameters are the schema, which every
 * server with tool calls takes. Also the one schema rewrite both ways need:
 * a root that is not an object is wrapped in one, since tool parameters and
 * OpenAI's strict mode both want an object.
 */
import type { ResolvedModel, StructuredOutput } from "./types.ts";

/**
 * The default way per protocol: OpenAI's own endpoints have structured
 * outputs (Responses `text.format`, Chat Completions `response_format`);
 * other Chat Completions servers (llama.cpp, Ollama, vLLM, gateways) differ
 * in what they take, and Anthropic's native format exists only on recent
 * models and for a subset of JSON Schema, so those get the tool, which works
 * with any schema on every one of them. `structured_output` overrides it.
 */
export function structuredOutputOf(
  model: Pick<ResolvedModel, "protocol" | "baseUrl" | "structuredOutput">,
): StructuredOutput {
  if (model.structuredOutput !== undefined) return model.structuredOutput;
  if (model.protocol === "openai_responses") return "native";
  if (model.protocol === "openai_chat_completions")
    return hostOf(model.baseUrl) === "api.openai.com" ? "native" : "tool";
  return "tool";
}

/** The answer schema as it goes on the wire, and whether the answer sits under `answer` in it. */
export interface WireSchema {
  schema: Record<string, unknown>;
  wrapped: boolean;
}

/**
 * The schema an object-shaped answer is asked with: the user's as it is when
 * its root is an object, else `{ answer: <schema> }`, with `$schema`, `$defs`
 * and `definitions` moved to the new root so that `#/$defs/...` references
 * still resolve.
 */
export function wireSchema(schema: Record<string, unknown>): WireSchema {
  if (schema.type === "object") return { schema, wrapped: false };
  const { $schema, $defs, definitions, ...inner } = schema;
  const root: Record<string, unknown> = {};
  if ($schema !== undefined) root.$schema = $schema;
  root.type = "object";
  root.properties = { answer: inner };
  root.required = ["answer"];
  root.additionalProperties = false;
  if ($defs !== undefined) root.$defs = $defs;
  if (definitions !== undefined) root.definitions = definitions;
  return { schema: root, wrapped: true };
}

/**
 * Whether OpenAI's strict mode takes the schema as it is: every object
 * closes its properties (`additionalProperties: false`) and requires all of
 * them. A schema that does not is sent with `strict: false` (a guide the
 * model follows, not a guarantee) rather than refused by the API; the
 * answer is checked against the schema either way.
 */
export function fitsStrictMode(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.every(fitsStrictMode);
  if (schema === null || typeof schema !== "object") return true;
  const node = schema as Record<string, unknown>;
  const properties = node.properties;
  if (node.type === "object" || (properties !== null && typeof properties === "object")) {
    if (node.additionalProperties !== false) return false;
    const names = properties !== null && typeof properties === "object" ? Object.keys(properties) : [];
    const required = Array.isArray(node.required) ? node.required : [];
    if (!names.every((name) => required.includes(name))) return false;
  }
  return Object.entries(node).every(
    ([key, value]) =>
      key === "enum" || key === "const" || key === "default" || key === "examples" || fitsStrictMode(value),
  );
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}
