import { describe, expect, test } from "bun:test";
import { askServer, learnContextWindow } from "../../src/providers/server-context-window.ts";
import type { FetchLike, ResolvedModel } from "../../src/providers/types.ts";

/** A server that answers `routes` ("METHOD path" → JSON) and 404 to the rest, recording what it was asked. */
function serverWith(routes: Record<string, unknown>): { fetch: FetchLike; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    fetch: async (url, init) => {
      const key = `${init.method ?? "GET"} ${new URL(url).pathname}`;
      asked.push(key);
      const body = routes[key];
      return body === undefined ? new Response("not found", { status: 404 }) : Response.json(body);
    },
  };
}

const model = (baseUrl: string, extra: Partial<ResolvedModel> = {}): ResolvedModel => ({
  ref: "local/q",
  provider: "local",
  alias: "q",
  wireId: "qwen3:8b",
  protocol: "openai_chat_completions",
  baseUrl,
  apiKey: "",
  headers: {},
  ...extra,
});

describe("the context window a local server reports", () => {
  test("llama.cpp: /props default_generation_settings.n_ctx (the slot's), before /v1/models meta", async () => {
    const server = serverWith({
      "GET /props": { default_generation_settings: { n_ctx: 4096 } },
      "GET /v1/models": { data: [{ id: "qwen3:8b", meta: { n_ctx: 8192 } }] },
    });
    expect(await askServer("http://127.0.0.1:8080/v1", "qwen3:8b", server.fetch)).toMatchObject({
      window: { tokens: 4096, source: "llama.cpp's GET http://127.0.0.1:8080/props" },
    });
  });

  test("Ollama: the loaded model's context from /api/ps, else num_ctx of /api/show, else its 4096 default", async () => {
    const loaded = serverWith({
      "GET /api/ps": { models: [{ name: "qwen3:8b", model: "qwen3:8b", context_length: 32768 }] },
      "POST /api/show": { parameters: "num_ctx 8192\nstop <|im_end|>", model_info: { "qwen3.context_length": 40960 } },
    });
    expect((await askServer("http://localhost:11434/v1", "qwen3:8b", loaded.fetch)).window?.tokens).toBe(32768);
    const configured = serverWith({
      "POST /api/show": { parameters: "temperature 0.6\nnum_ctx 8192", model_info: { "qwen3.context_length": 40960 } },
    });
    expect(await askServer("http://localhost:11434/v1", "qwen3:8b", configured.fetch)).toMatchObject({
      window: { tokens: 8192, source: "Ollama's POST http://localhost:11434/api/show (num_ctx)" },
    });
    const plain = serverWith({ "POST /api/show": { model_info: { "qwen3.context_length": 40960 } } });
    expect((await askServer("http://localhost:11434/v1", "qwen3:8b", plain.fetch)).window?.tokens).toBe(4096);
  });

  test("LM Studio: the loaded context of /api/v0/models/<id>; vLLM: max_model_len of /v1/models", async () => {
    const lmstudio = serverWith({
      "GET /api/v0/models/qwen3%3A8b": { id: "qwen3:8b", loaded_context_length: 16384, max_context_length: 131072 },
    });
    expect((await askServer("http://127.0.0.1:1234/v1", "qwen3:8b", lmstudio.fetch)).window?.tokens).toBe(16384);
    const vllm = serverWith({
      "GET /v1/models": {
        data: [
          { id: "other", max_model_len: 1 },
          { id: "qwen3:8b", max_model_len: 65536 },
        ],
      },
    });
    expect((await askServer("http://127.0.0.1:8000/v1", "qwen3:8b", vllm.fetch)).window?.tokens).toBe(65536);
  });

  test("a server that reports nothing leaves the window unknown", async () => {
    expect(await askServer("http://127.0.0.1:9/v1", "qwen3:8b", serverWith({}).fetch)).toEqual({});
  });

  test("only a server on this machine is asked, once per server and model; config.yaml's window wins", async () => {
    const server = serverWith({ "GET /props": { default_generation_settings: { n_ctx: 2048 } } });
    const remote = model("https://api.example.com/v1");
    await learnContextWindow(remote, { fetchImpl: server.fetch });
    expect(server.asked).toEqual([]);
    const configured = model("http://127.0.0.1:8080/v1", { contextWindow: 100 });
    await learnContextWindow(configured, { fetchImpl: server.fetch });
    expect(configured.contextWindow).toBe(100);
    expect(configured.contextWindowSource).toBeUndefined();
    server.asked.length = 0;

    const local = model("http://127.0.0.1:8081/v1");
    await learnContextWindow(local, { fetchImpl: server.fetch });
    expect(local).toMatchObject({
      contextWindow: 2048,
      contextWindowSource: "llama.cpp's GET http://127.0.0.1:8081/props",
    });
    const asked = server.asked.length;
    const again = model("http://127.0.0.1:8081/v1");
    await learnContextWindow(again, { fetchImpl: server.fetch });
    expect(again.contextWindow).toBe(2048);
    expect(server.asked.length).toBe(asked);
  });
});

describe("what a local server says its model takes as input", () => {
  test("llama.cpp: architecture.input_modalities of /v1/models", async () => {
    const server = serverWith({
      "GET /v1/models": {
        data: [{ id: "qwen3:8b", architecture: { input_modalities: ["text"], output_modalities: ["text"] } }],
      },
    });
    expect((await askServer("http://127.0.0.1:8080/v1", "qwen3:8b", server.fetch)).input).toEqual({
      modalities: ["text"],
      source: "GET http://127.0.0.1:8080/v1/models (architecture.input_modalities)",
    });
  });

  test("Ollama: capabilities of /api/show, vision read as image", async () => {
    const vision = serverWith({ "POST /api/show": { capabilities: ["completion", "vision"] } });
    expect((await askServer("http://localhost:11434/v1", "qwen3:8b", vision.fetch)).input?.modalities).toEqual([
      "text",
      "image",
    ]);
    const text = serverWith({ "POST /api/show": { capabilities: ["completion", "tools"] } });
    expect((await askServer("http://localhost:11434/v1", "qwen3:8b", text.fetch)).input).toEqual({
      modalities: ["text"],
      source: "Ollama's POST http://localhost:11434/api/show (capabilities)",
    });
  });

  test("a server that lists nothing leaves it unknown; the model learns what is listed, even beside a configured window", async () => {
    expect(
      (
        await askServer(
          "http://127.0.0.1:8000/v1",
          "qwen3:8b",
          serverWith({ "GET /v1/models": { data: [{ id: "qwen3:8b" }] } }).fetch,
        )
      ).input,
    ).toBeUndefined();
    const local = model("http://127.0.0.1:8090/v1", { contextWindow: 100 });
    await learnContextWindow(local, {
      fetchImpl: serverWith({
        "GET /v1/models": { data: [{ id: "qwen3:8b", architecture: { input_modalities: ["text", "image"] } }] },
      }).fetch,
    });
    expect(local.serverInput?.modalities).toEqual(["text", "image"]);
  });
});
