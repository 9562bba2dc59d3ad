/**
 * The models.dev snapshot shipped in the binary, through the binary: a
 * config.yaml model of a vendor preset without `cost:` or
 * `context_window` is priced and sized by the catalogue (run_end's cost,
 * the window a too-long attachment is refused against, named as the
 * snapshot's), while a server of one's own serving the same model id gets
 * neither. The scripted provider stands in for the vendor (a preset's
 * base_url may point anywhere); nothing leaves this machine.
 *
 * The figures are the snapshot's for OpenRouter's `openai/gpt-4o`: $2.50
 * and $10 per million input and output tokens, 128,000 tokens of context.
 * A refreshed snapshot that changes them changes this test.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { Instance } from "../support/instance.ts";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";
import { jsonEvents } from "../support/scenario.ts";

let inst: Instance | undefined;
let server: ProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  inst?.dispose();
  server = undefined;
  inst = undefined;
});

/** An instance whose provider `p` is written by `provider` (4-space keys) with one model `m`, wire id `openai/gpt-4o`. */
async function setup(provider: (url: string) => string): Promise<Instance> {
  server = await startProviderServer();
  inst = new Instance();
  inst.config(
    [
      "providers:",
      "  p:",
      provider(server.url),
      "    api_key: test-key",
      "    models:",
      '      m: { id: "openai/gpt-4o" }',
      "",
    ].join("\n"),
  );
  inst.agent("coder", "---\ndescription: A test agent.\nmodel: p/m\n---\nYou are a test agent.\n");
  return inst;
}

const VENDOR = (url: string) => `    preset: openrouter\n    base_url: ${url}/v1`;
const OWN_SERVER = (url: string) => `    protocol: openai_chat_completions\n    base_url: ${url}/v1`;
/** More text than 128,000 tokens at about four characters a token. */
const LONG_TEXT = "word ".repeat(110_000);

describe("config.yaml models and the models.dev snapshot", () => {
  test("a vendor preset's model without cost: gets the catalogue's prices in message_end and run_end", async () => {
    const i = await setup(VENDOR);
    server!.script({ text: "Done.", usage: { input: 1000, output: 100 } });
    const r = await i.run(["run", "-a", "coder", "-p", "go", "--json"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const events = jsonEvents(r.stdout);
    // (1000 * 2.5 + 100 * 10) / 1e6
    expect(events.find((e) => e.type === "message_end")?.cost).toBe(0.0035);
    expect(events.at(-1)).toMatchObject({ type: "run_end", cost: 0.0035 });
  });

  test("its context window is the catalogue's, and the message refusing a too-long attachment names the snapshot", async () => {
    const i = await setup(VENDOR);
    i.file("long.txt", LONG_TEXT);
    const r = await i.run(["run", "-a", "coder", "-p", "summarize", "-f", "long.txt"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /more than the context window of p\/m \(128,000 tokens, reported by the models\.dev snapshot of \d{4}-\d{2}-\d{2}; providers\.p\.models\.m\.context_window overrides it\)/,
    );
    expect(server!.requests).toHaveLength(0);
  });

  test("cost: and context_window written in config.yaml win over the catalogue", async () => {
    server = await startProviderServer();
    inst = new Instance();
    inst.config(
      `providers:\n  p:\n${VENDOR(server.url)}\n    api_key: test-key\n    models:\n      m: { id: "openai/gpt-4o", cost: { input: 1, output: 1 }, context_window: 1000000 }\n`,
    );
    inst.agent("coder", "---\ndescription: A test agent.\nmodel: p/m\n---\nYou are a test agent.\n");
    inst.file("long.txt", LONG_TEXT);
    server.script({ text: "Done.", usage: { input: 1000, output: 100 } });
    const r = await inst.run(["run", "-a", "coder", "-p", "go", "-f", "long.txt", "--json"]);
    expect(r.code).toBe(0);
    expect(jsonEvents(r.stdout).at(-1)).toMatchObject({ type: "run_end", cost: 0.0011 });
  });

  test("a server of one's own serving the same model id gets no cost and no window from the catalogue", async () => {
    const i = await setup(OWN_SERVER);
    i.file("long.txt", LONG_TEXT);
    server!.script({ text: "Done.", usage: { input: 1000, output: 100 } });
    const r = await i.run(["run", "-a", "coder", "-p", "go", "-f", "long.txt", "--json"]);
    expect(r.code).toBe(0);
    const events = jsonEvents(r.stdout);
    expect(events.find((e) => e.type === "message_end")).not.toHaveProperty("cost");
    expect(events.at(-1)).toMatchObject({ type: "run_end" });
    expect(events.at(-1)).not.toHaveProperty("cost");
    // The long attachment went out: no catalogue window stopped it.
    expect(server!.requests).toHaveLength(1);
  });
});
