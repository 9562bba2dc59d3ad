/**
 * What a local server says its model takes as input (docs/providers.md,
 * "Local servers"): llama.cpp lists `architecture.input_modalities` in
 * `GET /v1/models` (`["text"]`, or `["text", "image"]` when started with
 * the model's `--mmproj`), Ollama lists `capabilities` in `POST /api/show`
 * (`vision` among them for a model that sees images). An image sent to a
 * model whose server lists no image input is refused before the request:
 * the server would answer HTTP 500 (`image input is not supported`).
 */

/** The input kinds a server lists for a model, and where it listed them. */
export interface ServerInput {
  /** `text`, `image`, `audio`, ... as the server names them (Ollama's `vision` reads as `image`). */
  modalities: readonly string[];
  source: string;
}

/** From llama.cpp's `/v1/models` entry of the model, or Ollama's `/api/show`; undefined when neither says. */
export function serverInput(
  modelsEntry: unknown,
  modelsUrl: string,
  ollamaShow: unknown,
  showUrl: string,
): ServerInput | undefined {
  const listed = field(field(modelsEntry, "architecture"), "input_modalities");
  if (isStringList(listed)) return { modalities: listed, source: `GET ${modelsUrl} (architecture.input_modalities)` };
  const capabilities = field(ollamaShow, "capabilities");
  if (isStringList(capabilities) && capabilities.includes("completion")) {
    return {
      modalities: ["text", ...(capabilities.includes("vision") ? ["image"] : [])],
      source: `Ollama's POST ${showUrl} (capabilities)`,
    };
  }
  return undefined;
}

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === "string");
}
