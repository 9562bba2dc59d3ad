/**
 * Requests a llama.cpp server can never serve (docs/providers.md, "Local
 * servers"): an image to a model without a vision projector is refused
 * before the request, from what the server lists as the model's input; a
 * request whose grammar the model breaks (`Unexpected empty grammar stack`)
 * fails at its first answer, without the retries a passing fault gets.
 */
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { Instance } from "../support/instance.ts";
import { jsonEvents } from "../support/scenario.ts";
import { sessionFiles } from "../support/session-reader.ts";
import { startCountingProxy, type CountingProxy } from "./support/counting-proxy.ts";
import { localConfig, puppetAgent, startLlamaServer, type LlamaServer } from "./support/llama-server.ts";

let server: LlamaServer;
let proxy: CountingProxy;
let inst: Instance | undefined;
beforeAll(async () => {
  server = await startLlamaServer();
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

/** A 1x1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

const chatRequests = (): string[] => proxy.requests.filter((r) => r.startsWith("POST /v1/chat/completions"));

test("an image to a text-only model is refused before any request, naming what the server lists", async () => {
  inst = new Instance();
  inst.config(localConfig(proxy.url));
  inst.agent("puppet", puppetAgent());
  inst.write(`${inst.workspace}/dot.png`, PNG as unknown as string);
  const r = await inst.run(["run", "-a", "puppet", "-f", "dot.png", "-p", "What is in this image?"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(
    `rienda: -f dot.png: local/puppet cannot take an image: its server lists the model's input as text only (GET ${proxy.url}/v1/models (architecture.input_modalities)); start the server with the model's vision projector (llama.cpp: --mmproj), or use a model that sees images`,
  );
  expect(chatRequests()).toEqual([]);
  expect(sessionFiles(inst.home)).toEqual([]);
});

test("a broken grammar (a call of a tool the request does not offer) fails at once, not retried", async () => {
  inst = new Instance();
  inst.config(localConfig(proxy.url));
  // The puppet calls `shell`; offered only `word-count`, llama.cpp's grammar refuses the call mid-answer.
  inst.tool(
    "word-count",
    "module.exports = { description: 'Counts words.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }, execute: () => '0' };\n",
  );
  inst.agent("puppet", puppetAgent(["word-count"]));
  const r = await inst.run(["run", "-a", "puppet", "-p", "Count.", "--json"]);
  expect(r.code).toBe(1);
  const events = jsonEvents(r.stdout);
  expect(events.filter((e) => e.type === "retry")).toEqual([]);
  expect(String(events.at(-1)?.message)).toContain("Unexpected empty grammar stack");
  expect(chatRequests()).toHaveLength(1);
});
