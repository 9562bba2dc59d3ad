/**
 * The context window of a llama.cpp server on this machine is asked once
 * and kept a while (docs/providers.md, "The context window, asked of the
 * server"): a fleet of runs does not probe the server with each process;
 * run_start and doctor show the window and where it came from; an expired
 * entry is asked again.
 */
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Instance } from "../support/instance.ts";
import { jsonEvents } from "../support/scenario.ts";
import { startCountingProxy, type CountingProxy } from "./support/counting-proxy.ts";
import { localConfig, puppetAgent, startLlamaServer, type LlamaServer } from "./support/llama-server.ts";

let server: LlamaServer;
let proxy: CountingProxy;
let inst: Instance | undefined;
beforeAll(async () => {
  server = await startLlamaServer({ contextSize: 4096 });
  proxy = await startCountingProxy(server.port);
});
afterAll(async () => {
  await proxy.close();
  await server.kill();
});
afterEach(() => {
  inst?.dispose();
  inst = undefined;
  proxy.requests.length = 0;
});

/** Every request that is not a model request: the window and input probes. */
const probes = (): string[] => proxy.requests.filter((r) => !r.startsWith("POST /v1/chat/completions"));

function setup(): Instance {
  inst = new Instance();
  inst.config(localConfig(proxy.url));
  inst.agent("puppet", puppetAgent());
  return inst;
}

test("five runs ask the server once; run_start shows the window, its source and when it was asked", async () => {
  const i = setup();
  const starts: Record<string, unknown>[] = [];
  for (let n = 0; n < 5; n++) {
    const r = await i.run(["run", "-a", "puppet", "-p", "Say hello.", "--json"]);
    expect(r.code).toBe(0);
    starts.push(jsonEvents(r.stdout)[0]!);
  }
  const firstProbes = probes().length;
  expect(firstProbes).toBeGreaterThan(0);
  expect(firstProbes).toBeLessThanOrEqual(5);
  // Only the first run asked: every probe came before the second model request.
  const secondRequest = proxy.requests.filter((r) => r.startsWith("POST /v1/chat/completions"))[1]!;
  expect(proxy.requests.lastIndexOf(probes().at(-1)!)).toBeLessThan(proxy.requests.indexOf(secondRequest));
  for (const start of starts) {
    expect(start.contextWindow).toEqual({
      tokens: 4096,
      source: `llama.cpp's GET ${proxy.url}/props`,
      askedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  }
  expect(new Set(starts.map((s) => (s.contextWindow as { askedAt: string }).askedAt)).size).toBe(1);
});

test("an expired entry is asked again", async () => {
  const i = setup();
  await i.run(["run", "-a", "puppet", "-p", "Say hello."]);
  const asked = probes().length;
  const dir = i.riendaPath("cache");
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const entry = JSON.parse(readFileSync(path, "utf8")) as { expires_at: string; payload: string };
    writeFileSync(path, JSON.stringify({ ...entry, expires_at: "2020-01-01T00:00:00Z" }));
  }
  await i.run(["run", "-a", "puppet", "-p", "Say hello."]);
  expect(probes().length).toBe(2 * asked);
});

test("doctor shows the window as the server reports it", async () => {
  const i = setup();
  const r = await i.run(["doctor"]);
  expect(r.stdout).toContain(`\nwindow        local/puppet: 4,096 tokens (llama.cpp's GET ${proxy.url}/props)\n`);
  const json = JSON.parse((await i.run(["doctor", "--json"])).stdout) as { checked: { contextWindows: unknown[] } };
  expect(json.checked.contextWindows).toEqual([
    { model: "local/puppet", tokens: 4096, source: `llama.cpp's GET ${proxy.url}/props` },
  ]);
});
