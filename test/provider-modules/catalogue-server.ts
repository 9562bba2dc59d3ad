/** A scripted models.dev on 127.0.0.1 for the built-ins' tests: serves one api.json text, or an HTTP error, and records each request. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export class CatalogueServer {
  readonly requests: string[] = [];
  /** What GET answers: a status and a body. */
  answer: { status: number; body: string } = { status: 200, body: "{}" };
  private server: Server | undefined;
  url = "";

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      this.requests.push(`${request.method} ${request.url}`);
      response.writeHead(this.answer.status, { "content-type": "application/json" });
      response.end(this.answer.body);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/api.json`;
    return this;
  }

  serve(catalogue: unknown): void {
    this.answer = { status: 200, body: JSON.stringify(catalogue) };
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

/** An address nothing listens on: a server started and stopped again. */
export async function unreachableUrl(): Promise<string> {
  const server = await new CatalogueServer().start();
  await server.stop();
  return server.url;
}

/**
 * A fragment of models.dev's api.json as it is published: providers by id
 * with their adapter package (`npm`), address (`api`) and models, each model
 * with `limit`, `reasoning`, `reasoning_options`, a `status` when not
 * generally available, and a `provider.npm` when its adapter differs.
 */
export function catalogueFragment(): Record<string, unknown> {
  const model = (id: string, fields: Record<string, unknown>) => ({
    id,
    name: id.toUpperCase(),
    attachment: false,
    reasoning: false,
    tool_call: true,
    temperature: true,
    release_date: "2026-01-01",
    last_updated: "2026-02-01",
    modalities: { input: ["text"], output: ["text"] },
    open_weights: true,
    cost: { input: 0.6, output: 2.2 },
    limit: { context: 131072, output: 32768 },
    ...fields,
  });
  return {
    "opencode-go": {
      id: "opencode-go",
      name: "OpenCode Go",
      env: ["OPENCODE_API_KEY"],
      npm: "@ai-sdk/openai-compatible",
      api: "https://opencode.ai/zen/go/v1",
      doc: "https://opencode.ai/docs/go",
      models: {
        "kimi-k2.6": model("kimi-k2.6", {
          name: "Kimi K2.6",
          reasoning: true,
          reasoning_options: [{ type: "effort", values: ["low", "medium", "high"] }],
          limit: { context: 262144, output: 65536 },
        }),
        "glm-5.2": model("glm-5.2", { name: "GLM-5.2", reasoning: true, limit: { context: 204800, output: 131072 } }),
        "minimax-m3": model("minimax-m3", {
          name: "MiniMax M3",
          reasoning: true,
          provider: { npm: "@ai-sdk/anthropic" },
          reasoning_options: [
            { type: "budget", min: 1024 },
            { type: "effort", values: ["none", "low", "high", "high"] },
          ],
          limit: { context: 1000000, output: 0 },
        }),
        "gpt-oss-120b": model("gpt-oss-120b", {
          name: "GPT OSS 120B",
          provider: { npm: "@ai-sdk/openai" },
          limit: { context: 131072, output: 0 },
        }),
        "qwen3.7-preview": model("qwen3.7-preview", { status: "beta" }),
        "qwen3.5-plus": model("qwen3.5-plus", { status: "deprecated" }),
        "mimo-v3": model("mimo-v3", { status: "alpha" }),
        "gemini-flash": model("gemini-flash", { provider: { npm: "@ai-sdk/google" } }),
        "no-window": model("no-window", { limit: { context: 0, output: 0 } }),
      },
    },
    "zai-coding-plan": {
      id: "zai-coding-plan",
      name: "Z.AI Coding Plan",
      env: ["ZHIPU_API_KEY"],
      npm: "@ai-sdk/openai-compatible",
      api: "https://api.z.ai/api/coding/paas/v4",
      doc: "https://docs.z.ai/devpack/overview",
      models: {
        "glm-4.7": model("glm-4.7", {
          name: "GLM-4.7",
          reasoning: true,
          reasoning_options: [{ type: "toggle" }],
          limit: { context: 204800, output: 131072 },
        }),
        "glm-4.5-air": model("glm-4.5-air", { name: "GLM-4.5-Air", limit: { context: 131072, output: 98304 } }),
      },
    },
    anthropic: { id: "anthropic", npm: "@ai-sdk/anthropic", models: {} },
  };
}
