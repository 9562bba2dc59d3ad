/**
 * Finds the models.dev catalogue (api.json's content) inside an OpenCode
 * executable. OpenCode's build fetches https://models.dev/api.json and
 * compiles it in as its offline fallback, so each release of the npm
 * package `opencode-linux-x64` carries the whole catalogue of its day, as
 * a minified object literal: `{"302ai":{id:"302ai",env:[...],...},...}`.
 *
 * The literal is found by its shape (an object whose first key names a
 * provider entry with that same `id` and an `env` list), read as data
 * (js-literal.ts: nothing is run), and checked: a release that stores it
 * otherwise makes this fail with a message, never a partial snapshot.
 */
import { readLiteral } from "./js-literal.ts";

/** A provider entry or a model entry of api.json, as read. */
export type Entry = Record<string, unknown>;
/** api.json: provider id -> provider entry (with `models`: model id -> model entry). */
export type Catalogue = Record<string, Entry>;

/** The providers a snapshot must have: the built-in modules' and the presets'. */
export const REQUIRED_PROVIDERS: readonly string[] = [
  "opencode-go",
  "zai-coding-plan",
  "openai",
  "anthropic",
  "openrouter",
  "deepseek",
];

/** The opening of the catalogue: `{` then a provider key whose entry starts with its own id and `env`. */
const OPENING = /\{("?)([\w.-]+)\1:\{id:"\2",env:\[/g;

/** The catalogue inside `executable`; throws naming what was not found. */
export function extractCatalogue(executable: Buffer): Catalogue {
  const text = executable.toString("latin1");
  const problems: string[] = [];
  for (const opening of text.matchAll(OPENING)) {
    try {
      const { value } = readLiteral(text, opening.index);
      checkCatalogue(value);
      return value;
    } catch (error) {
      problems.push(`at byte ${opening.index}: ${(error as Error).message}`);
    }
  }
  const tried = problems.length === 0 ? "nothing shaped like it" : problems.join("; ");
  throw new Error(
    `no models.dev catalogue found in the executable (${tried}): the package may store it differently now (docs/providers.md, "The models.dev snapshot", says how to pin another source)`,
  );
}

/** Throws unless `value` looks like api.json with every required provider. */
export function checkCatalogue(value: unknown): asserts value is Catalogue {
  if (!isEntry(value)) throw new Error("the literal is not an object");
  for (const [id, provider] of Object.entries(value)) {
    if (!isEntry(provider) || provider.id !== id || !isEntry(provider.models))
      throw new Error(`provider "${id}" has no id of its own or no models`);
    for (const [modelId, model] of Object.entries(provider.models)) {
      if (!isEntry(model) || model.id !== modelId) throw new Error(`model "${id}/${modelId}" has no id of its own`);
    }
  }
  const missing = REQUIRED_PROVIDERS.filter((id) => !Object.hasOwn(value, id));
  if (missing.length > 0) throw new Error(`the catalogue lacks ${missing.join(", ")}`);
}

function isEntry(value: unknown): value is Entry {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
