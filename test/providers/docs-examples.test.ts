/**
 * docs/providers.md is checked against the code: every local-server config
 * it shows loads, resolves, and streams a request through the chat protocol
 * without an Authorization header; the replay example plays as described,
 * and its running-out message is the one the code produces.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parse } from "yaml";
import { parseConfig } from "../../src/config/index.ts";
import { streamModel, type StreamEvent } from "../../src/providers/index.ts";
import type { Message, ModelRequest, ResolvedModel } from "../../src/providers/types.ts";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";

const DOC = readFileSync(resolve(import.meta.dir, "../../docs/providers.md"), "utf8");
const yamlBlocks = [...DOC.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");
const configs = yamlBlocks.filter((text) => !Array.isArray(parse(text)));
const scripts = yamlBlocks.filter((text) => Array.isArray(parse(text)));
// The migration example ("Moving from config.yaml to modules") is a remote provider shown beside its module.
const migration = configs.filter((text) => text.includes("(older generation)"));
const localConfigs = configs.filter((text) => !text.includes("protocol: replay") && !migration.includes(text));

const home = mkdtempSync(join(tmpdir(), "rienda-docs-"));
let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

function load(text: string) {
  const path = join(home, ".rienda", "config.yaml");
  return parseConfig(text, { path, env: {}, home });
}

function requestFor(
  model: ResolvedModel,
  messages: Message[] = [{ role: "user", blocks: [{ type: "text", text: "hi" }] }],
): ModelRequest {
  return { model, system: "", messages, tools: [], sessionId: "s-docs" };
}

async function collect(request: ModelRequest): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of streamModel(request, { sleep: async () => {} })) events.push(event);
  return events;
}

describe("docs/providers.md", () => {
  test("shows the three local servers, a tool_calls_in_text example and a replay config with its script", () => {
    expect(localConfigs).toHaveLength(4);
    expect(configs.length - localConfigs.length - migration.length).toBe(1);
    expect(migration).toHaveLength(1);
    const migrated = parseConfig(migration[0]!, {
      path: join(home, ".rienda", "config.yaml"),
      env: { ACME_API_KEY: "k" },
      home,
    });
    expect(migrated.resolveModel("acme/fast").wireId).toBe("acme-fast-2");
    expect(scripts).toHaveLength(1);
  });

  test("every local-server example loads and speaks the chat protocol with no Authorization header", async () => {
    for (const text of localConfigs) {
      const config = load(text);
      for (const ref of config.modelRefs()) {
        const model = config.resolveModel(ref);
        expect(model.protocol).toBe("openai_chat_completions");
        if (model.toolCallsInText !== undefined) expect(model.toolCallsInText).toBe("hermes");
        expect(model.apiKey).toBe("");
        const path = new URL(model.baseUrl).pathname.replace(/\/+$/, "");
        expect(path).toBe("/v1");
        // The scripted server stands in for the local one, at the same path.
        server.reset();
        server.script({ text: `hello from ${ref}` });
        const events = await collect(requestFor({ ...model, baseUrl: `${server.url}${path}` }));
        expect(events.at(-1)).toMatchObject({
          type: "done",
          response: { message: { blocks: [{ type: "text", text: `hello from ${ref}` }] } },
        });
        const [sent] = server.requests;
        expect(sent?.path).toBe("/v1/chat/completions");
        expect(sent?.headers.authorization).toBeUndefined();
        expect((sent?.body as { model: string } | undefined)?.model).toBe(model.wireId);
      }
    }
  });

  test("the Ollama example sends its model id and temperature", () => {
    const ollama = load(localConfigs[0] ?? "").resolveModel("ollama/qwen");
    expect(ollama).toMatchObject({
      wireId: "qwen3:8b",
      baseUrl: "http://127.0.0.1:11434/v1",
      temperature: 0.6,
      contextWindow: 40960,
    });
  });

  test("the replay example plays its script turn by turn, then runs out with the documented message", async () => {
    const replayConfig = configs.find((text) => text.includes("protocol: replay")) ?? "";
    mkdirSync(join(home, ".rienda", "scripts"), { recursive: true });
    const scriptPath = join(home, ".rienda", "scripts", "count-words.yaml");
    writeFileSync(scriptPath, scripts[0] ?? "");
    const model = load(replayConfig).resolveModel("replay/demo");
    expect(model.script).toBe(scriptPath);

    const user: Message = { role: "user", blocks: [{ type: "text", text: "count the words in notes.txt" }] };
    const first = await collect(requestFor(model, [user]));
    expect(first.filter((event) => event.type === "tool_call")).toEqual([
      { type: "tool_call", id: "replay_1_1", name: "word-count", arguments: { path: "notes.txt" } },
    ]);
    const last = first.at(-1);
    if (last?.type !== "done") throw new Error("expected an answer");

    const results: Message = {
      role: "user",
      blocks: [{ type: "tool_result", toolResultCallId: "replay_1_1", toolResult: [{ type: "text", text: "42" }] }],
    };
    const second = await collect(requestFor(model, [user, last.response.message, results]));
    expect(second.at(-1)).toMatchObject({
      type: "done",
      response: {
        message: { blocks: [{ type: "text", text: "notes.txt has 42 words." }] },
        usage: { inputTokens: 230, outputTokens: 12 },
      },
    });

    const assistant: Message = { role: "assistant", blocks: [{ type: "text", text: "notes.txt has 42 words." }] };
    const third = await collect(
      requestFor(model, [
        user,
        last.response.message,
        results,
        assistant,
        { role: "user", blocks: [{ type: "text", text: "again" }] },
      ]),
    );
    const failure = third.at(-1);
    expect(failure?.type).toBe("error");
    if (failure?.type === "error") {
      const documented = DOC.replace(/\s+/g, " ");
      expect(documented).toContain(failure.failure.message.replace(scriptPath, "/abs/path/count-words.yaml"));
    }
  });
});
