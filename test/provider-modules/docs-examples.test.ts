/**
 * docs/provider-modules.md is checked against the code: its example modules
 * are written to a providers folder and evaluated in the real runtime, the
 * gateway one against a scripted gateway with the config.yaml block shown.
 */
import { expect, test } from "bun:test";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parse } from "yaml";
import { blocksOf } from "../support/doc-blocks.ts";
import { providerOf, providersFixture } from "./support.ts";

const blocks = blocksOf("docs/provider-modules.md");
const moduleOf = (folder: string) => {
  const found = blocks.find((b) => b.lang === "js" && b.body.startsWith(`// ~/.rienda/providers/${folder}/index.js`));
  if (!found) throw new Error(`docs/provider-modules.md shows no module ${folder}`);
  return found.body;
};

const fx = providersFixture();

test("the page shows two modules and one config.yaml", () => {
  expect(blocks.filter((b) => b.lang === "js")).toHaveLength(2);
  expect(blocks.filter((b) => b.lang === "yaml")).toHaveLength(1);
});

test("the acme module declares what the page says: three models, levels, an Anthropic model with its own address and header", async () => {
  fx.home.write("acme", moduleOf("acme"));
  const provider = providerOf(await fx.home.evaluate("acme"));
  expect([provider.protocol, provider.baseUrl, provider.sessionHeader, provider.auth]).toEqual([
    "openai_chat_completions",
    "https://api.acme.example/v1",
    "x-acme-session",
    "api_key",
  ]);
  expect([...provider.models.keys()]).toEqual(["acme-large", "acme-small", "acme-claude"]);
  expect(provider.models.get("acme-large")?.thinkingModes).toEqual([
    { level: "low", maxTokens: 0 },
    { level: "high", maxTokens: 0 },
  ]);
  expect(provider.models.get("acme-claude")?.overrides).toEqual({
    protocol: "anthropic",
    baseUrl: "https://anthropic.acme.example",
    headers: { "X-Acme-Team": "claude" },
  });
});

test("the gateway module lists its gateway's models, and is skipped with the line shown when the gateway is down", async () => {
  let server: Server | undefined = createServer((request, response) => {
    response.writeHead(request.url === "/v1/models" ? 200 : 404, { "content-type": "application/json" });
    response.end(JSON.stringify({ object: "list", data: [{ id: "llama-3.3-70b" }, { id: "qwen3-coder" }] }));
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const config = parse(blocks.find((b) => b.lang === "yaml")!.body) as { config: { gateway: { base_url: string } } };
  expect(config.config.gateway.base_url).toBe("http://gateway.internal:4000/v1");
  config.config.gateway.base_url = base;
  fx.home.write("gateway", moduleOf("gateway"));
  try {
    const provider = providerOf(await fx.home.evaluate("gateway", { configDocument: config }));
    expect([provider.baseUrl, provider.auth, [...provider.models.keys()]]).toEqual([
      base,
      "none",
      ["llama-3.3-70b", "qwen3-coder"],
    ]);
  } finally {
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
  }
  const down = await fx.home.evaluate("gateway", { configDocument: config });
  expect("problem" in down ? down.problem : "").toStartWith(
    `provider "gateway": module threw: ctx.http.fetch: GET ${base}/models failed: `,
  );
});
