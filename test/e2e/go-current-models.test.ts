/**
 * Agents without a model and thinking levels (go-current.md §5-§6), with
 * config.yaml providers: which model a run takes (-m, the only model
 * offered, state.json's last_model, else an error naming -m) and what
 * --thinking puts on the wire, checked on the requests the provider gets.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { Instance } from "../support/instance.ts";
import { startCatalogue } from "../support/models-dev.ts";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";

let server: ProviderServer | undefined;
let inst: Instance | undefined;
afterEach(async () => {
  await server?.close();
  inst?.dispose();
  server = undefined;
  inst = undefined;
});

/** A home whose config.yaml declares provider `p` with the given models (alias -> YAML settings) and an agent without a model. */
async function home(
  models: Record<string, string>,
  protocol = "openai_chat_completions",
): Promise<{ inst: Instance; server: ProviderServer }> {
  server = await startProviderServer();
  inst = new Instance();
  const base = protocol === "anthropic" ? server.url : `${server.url}/v1`;
  const lines = Object.entries(models).map(([alias, settings]) => `      ${alias}: ${settings}`);
  inst.config(
    [
      "providers:",
      "  p:",
      `    protocol: ${protocol}`,
      `    base_url: ${base}`,
      "    api_key: k",
      "    models:",
      ...lines,
      "",
    ].join("\n"),
  );
  inst.agent("bot", "---\ndescription: An agent of the current Go generation, without a model.\n---\nBe brief.\n");
  return { inst, server };
}

const bodyOf = (s: ProviderServer, i = 0) => s.requests[i]?.body as Record<string, unknown>;

describe("an agent without a model", () => {
  test("runs the model -m names", async () => {
    const { inst, server } = await home({ a: "{ id: wire-a }", b: "{ id: wire-b }" });
    server.script({ text: "hi" });
    const r = await inst.run(["run", "-a", "bot", "-p", "x", "-m", "p/b"]);
    expect(r.stderr).not.toContain("rienda:");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("hi\n");
    expect(bodyOf(server).model).toBe("wire-b");
  });

  test("runs the only model offered without -m", async () => {
    const { inst, server } = await home({ only: "{ id: wire-only }" });
    server.script({ text: "hi" });
    const r = await inst.run(["run", "-a", "bot", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(bodyOf(server).model).toBe("wire-only");
  });

  test("with several models and nothing chosen, fails before any request naming -m and the models", async () => {
    const { inst, server } = await home({ a: "{}", b: "{}" });
    const r = await inst.run(["run", "-a", "bot", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'rienda: agent "bot" names no model: choose one with -m provider/model (offered: p/a, p/b)',
    );
    expect(server.requests).toHaveLength(0);
  });

  test("runs state.json's last_model when it is still offered, and ignores it when it is not", async () => {
    const { inst, server } = await home({ a: "{ id: wire-a }", b: "{ id: wire-b }" });
    inst.write(inst.riendaPath("state.json"), JSON.stringify({ last_model: "p/b", last_thinking: {} }));
    server.script({ text: "hi" });
    expect((await inst.run(["run", "-a", "bot", "-p", "x"])).code).toBe(0);
    expect(bodyOf(server).model).toBe("wire-b");
    inst.write(inst.riendaPath("state.json"), JSON.stringify({ last_model: "gone/model" }));
    const r = await inst.run(["run", "-a", "bot", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("choose one with -m provider/model");
    expect(server.requests).toHaveLength(1);
  });

  test("a continued session keeps its model without -m", async () => {
    const { inst, server } = await home({ a: "{ id: wire-a }", b: "{ id: wire-b }" });
    server.script({ text: "one" }, { text: "two" });
    const first = await inst.run(["run", "-a", "bot", "-p", "x", "-m", "p/b"]);
    const id = /session: (\S+)/.exec(first.stderr)?.[1];
    expect(id).toBeDefined();
    const second = await inst.run(["run", "-s", id!, "-p", "again"]);
    expect(second.code).toBe(0);
    expect(bodyOf(server, 1).model).toBe("wire-b");
  });

  test("no config.yaml and no provider module: says how to declare a provider", async () => {
    inst = new Instance();
    inst.agent("bot", "---\ndescription: d\n---\nx\n");
    const r = await inst.run(["run", "-a", "bot", "-p", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('rienda: agent "bot" names no model, and no provider offers one');
  });
});

describe("--thinking on a config.yaml model", () => {
  test("sends the level as reasoning_effort, off sends none, an unknown level is refused before any request", async () => {
    const { inst, server } = await home({ m: "{ id: wire-m, thinking_level: low }" });
    server.script({ text: "a" }, { text: "b" }, { text: "c" });
    expect((await inst.run(["run", "-a", "bot", "-p", "x"])).code).toBe(0);
    expect(bodyOf(server, 0).reasoning_effort).toBe("low");
    expect((await inst.run(["run", "-a", "bot", "-p", "x", "--thinking", "high"])).code).toBe(0);
    expect(bodyOf(server, 1).reasoning_effort).toBe("high");
    expect((await inst.run(["run", "-a", "bot", "-p", "x", "--thinking", "off"])).code).toBe(0);
    expect("reasoning_effort" in bodyOf(server, 2)).toBe(false);
    const refused = await inst.run(["run", "-a", "bot", "-p", "x", "--thinking", "max"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'rienda: --thinking max: p/m has no thinking level "max" (its levels: off, minimal, low, medium, high)',
    );
    expect(server.requests).toHaveLength(3);
  });
});

describe("rienda models", () => {
  test("lists every model with where it comes from, its thinking levels and its key, as a table and as JSON", async () => {
    const { inst } = await home({ a: "{ context_window: 1000 }", b: "{}" });
    const catalogue = await startCatalogue();
    try {
      const env = { RIENDA_MODELS_DEV_URL: catalogue.url };
      const table = await inst.run(["models"], { env });
      expect(table.code).toBe(0);
      const lines = table.stdout.split("\n");
      expect(lines[0]).toMatch(/^MODEL +FROM +CONTEXT +THINKING +KEY$/);
      expect(lines.find((l) => l.startsWith("p/a "))).toMatch(
        /^p\/a +config +1000 +off,minimal,low,medium,high +config$/,
      );
      expect(lines.find((l) => l.startsWith("opencode-go/go-large "))).toMatch(
        /^opencode-go\/go-large +built-in +200000 +off +missing \(rienda auth\)$/,
      );
      const json = JSON.parse((await inst.run(["models", "--json"], { env })).stdout) as Record<string, unknown>[];
      expect(json[0]).toEqual({
        ref: "p/a",
        provider: "p",
        origin: "config",
        thinking: ["off", "minimal", "low", "medium", "high"],
        key: "config",
        contextWindow: 1000,
      });
    } finally {
      await catalogue.close();
    }
  });
});

describe("a thinking level chosen with --thinking", () => {
  test("is recorded on the session's branch in the Go shape, and -s continues with it", async () => {
    const { inst, server } = await home({ m: "{ id: wire-m }" });
    server.script({ text: "a" }, { text: "b" }, { text: "c" });
    const first = await inst.run(["run", "-a", "bot", "-p", "x", "--thinking", "high"]);
    expect(first.code).toBe(0);
    const id = /session: (\S+)/.exec(first.stderr)![1]!;
    expect(bodyOf(server, 0).reasoning_effort).toBe("high");
    const again = await inst.run(["run", "-s", id, "-p", "y"]);
    expect(again.code).toBe(0);
    expect(bodyOf(server, 1).reasoning_effort).toBe("high");
    const off = await inst.run(["run", "-s", id, "-p", "z", "--thinking", "off"]);
    expect(off.code).toBe(0);
    expect("reasoning_effort" in bodyOf(server, 2)).toBe(false);
    const show = JSON.parse((await inst.run(["sessions", "show", id, "--json"])).stdout) as {
      entries: Record<string, unknown>[];
    };
    const levels = show.entries.filter((e) => e.kind === "thinking").map((e) => e.thinkingLevel);
    expect(levels).toEqual(["high", "off"]);
  });
});
