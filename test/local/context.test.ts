/**
 * The context window of a real llama.cpp server (`-c`), asked of it when
 * config.yaml gives none: attachments and a history that cannot fit are
 * refused before the request, naming where the figure came from;
 * compaction works to the server's window.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { Instance } from "../support/instance.ts";
import { jsonEvents } from "../support/scenario.ts";
import { sessionIdFrom } from "../support/session-reader.ts";
import { localConfig, puppetAgent, startLlamaServer, type LlamaServer } from "./support/llama-server.ts";

let server: LlamaServer;
let inst: Instance | undefined;
beforeAll(async () => {
  server = await startLlamaServer({ contextSize: 4096 });
});
afterAll(async () => {
  await server.kill();
});
afterEach(() => {
  inst?.dispose();
  inst = undefined;
});

function instance(modelExtra: string[] = [], configExtra = ""): Instance {
  const created = new Instance();
  created.config(localConfig(server.url, modelExtra) + configExtra);
  created.agent("puppet", puppetAgent());
  return created;
}

/**
 * `words` words of text. Rienda estimates four characters a token; the
 * puppet's byte-level vocabulary makes each character about 1.4 tokens, so
 * a test that must reach the window counts on the size the server reports
 * for the answer before (which Rienda uses when it is larger).
 */
const text = (words: number) => "word ".repeat(words);

describe("the window llama.cpp reports (-c 4096)", () => {
  test("piped text larger than it is refused before any request, naming /props and the key that overrides it", async () => {
    inst = instance();
    const r = await inst.run(["run", "-a", "puppet", "-p", "Summarise."], { stdinPipe: text(4000) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `more than the context window of local/puppet (4,096 tokens, reported by llama.cpp's GET ${server.url}/props; providers.local.models.puppet.context_window overrides it); attach less`,
    );
  });

  test("a history that outgrew it with compaction off ends the run before the request, naming the figure", async () => {
    inst = instance([], "compaction:\n  enabled: false\n");
    // The server counts about 3,000 tokens for this; the next prompt's estimate (1,200) takes the whole past 4,096.
    const first = await inst.run(["run", "-a", "puppet", "-p", text(420)]);
    expect(first.stdout).toBe("Hello from the puppet model.\n");
    const next = await inst.run(["run", "-s", sessionIdFrom(first.stderr), "-p", text(960), "--json"]);
    expect(next.code).toBe(1);
    const end = jsonEvents(next.stdout).at(-1) as { type: string; reason: string; message: string };
    expect(end).toMatchObject({ type: "run_end", reason: "error" });
    expect(end.message).toMatch(
      /^the conversation is about [\d,]+ tokens, more than the context window of local\/puppet \(4,096 tokens, reported by llama\.cpp's GET http:\/\/127\.0\.0\.1:\d+\/props; providers\.local\.models\.puppet\.context_window overrides it\), and compaction is off/,
    );
  });

  test("with compaction on, the history is condensed by the model to fit the server's window and the run goes on", async () => {
    inst = instance([], "compaction:\n  keep_recent_tokens: 100\n");
    const first = await inst.run(["run", "-a", "puppet", "-p", text(420)]);
    const next = await inst.run(["run", "-s", sessionIdFrom(first.stderr), "-p", text(300), "--json"]);
    expect(next.code).toBe(0);
    const notices = jsonEvents(next.stdout)
      .filter((e) => e.type === "notice")
      .map((e) => String(e.message));
    expect(notices.some((m) => m.startsWith("compacted the conversation:"))).toBe(true);
    expect(jsonEvents(next.stdout).at(-1)).toMatchObject({ type: "run_end", reason: "end_turn" });
  });

  test("a context_window in config.yaml wins; the server's own refusal of a too-long prompt is final and names the key", async () => {
    inst = instance(["context_window: 100000"]);
    const r = await inst.run(["run", "-a", "puppet", "-p", text(1000)]);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain("retrying");
    expect(r.stderr).toMatch(/HTTP 400: .*context size.*\. Set providers\.local\.models\.puppet\.context_window/);
  });
});
