import { describe, expect, test } from "bun:test";
import { explainFailure } from "../../src/providers/explain-failure.ts";
import type { ProviderFailure, ResolvedModel } from "../../src/providers/types.ts";

const model = (baseUrl: string, extra: Partial<ResolvedModel> = {}): ResolvedModel => ({
  ref: "local/qwen",
  provider: "local",
  alias: "qwen",
  wireId: "qwen3:8b",
  protocol: "openai_chat_completions",
  baseUrl,
  apiKey: "",
  headers: {},
  ...extra,
});
const refused: ProviderFailure = {
  kind: "network",
  retryable: true,
  message: "cannot reach x: connection refused: nothing is listening on 127.0.0.1:11434",
};

describe("explainFailure", () => {
  test("a refused local server gets the command that starts it, by its usual port", () => {
    expect(explainFailure(refused, model("http://127.0.0.1:11434/v1")).message).toEndWith(
      'Start Ollama with "ollama serve", or set providers.local.base_url to where it listens',
    );
    expect(explainFailure(refused, model("http://localhost:1234/v1")).message).toContain("Start LM Studio's server");
    expect(explainFailure(refused, model("http://127.0.0.1:8080/v1")).message).toContain(
      "llama-server -m <model.gguf> --port 8080 --jinja",
    );
  });

  test("a server that refuses tools without --jinja is told to start with it", () => {
    const noJinja: ProviderFailure = {
      kind: "invalid_request",
      retryable: false,
      status: 500,
      message: "HTTP 500: tools param requires --jinja flag",
    };
    expect(explainFailure(noJinja, model("http://127.0.0.1:8080/v1")).message).toBe(
      'provider "local" (http://127.0.0.1:8080/v1): HTTP 500: tools param requires --jinja flag. Start llama-server with --jinja (its default; tool calling needs it), or use an agent without tools',
    );
  });

  test("names the provider and the key: api_key, context_window, model id; quotes names with dots", () => {
    const auth: ProviderFailure = {
      kind: "authentication",
      retryable: false,
      status: 401,
      message: "HTTP 401: bad key",
    };
    expect(explainFailure(auth, model("https://api.example.com/v1")).message).toBe(
      'provider "local" (https://api.example.com/v1): HTTP 401: bad key. Check providers.local.api_key',
    );
    const long: ProviderFailure = {
      kind: "context_length",
      retryable: false,
      status: 400,
      message: "HTTP 400: prompt is too long",
    };
    expect(explainFailure(long, model("https://x", { alias: "llama3.1:8b" })).message).toContain(
      'Set providers.local.models."llama3.1:8b".context_window',
    );
    const missing: ProviderFailure = {
      kind: "invalid_request",
      retryable: false,
      status: 404,
      message: "HTTP 404: model not found",
    };
    expect(explainFailure(missing, model("https://x")).message).toContain(
      '(providers.local.models.qwen.id, now "qwen3:8b")',
    );
  });

  test("interrupts and replay failures are left alone", () => {
    const aborted: ProviderFailure = {
      kind: "aborted",
      retryable: false,
      message: "the model request was interrupted",
    };
    expect(explainFailure(aborted, model("http://127.0.0.1:1/v1"))).toEqual(aborted);
    const replay: ProviderFailure = { kind: "invalid_request", retryable: false, message: "replay script ran out" };
    expect(explainFailure(replay, model("", { protocol: "replay" }))).toEqual(replay);
  });
});
