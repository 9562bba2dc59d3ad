/**
 * The chat's model and thinking switches (cli/chat-model-commands.ts) and
 * the start-up model question (conversation/model-picks.ts), over real files in a
 * temporary HOME: levels put on the model as prepared, refusals that change
 * nothing, state.json written only for the chat.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { modelsToPick } from "../../src/conversation/model-picks.ts";
import { modelCommands, type ModelHost, type SwitchChanges } from "../../src/conversation/model-switching.ts";
import type { PreparedAgent } from "../../src/compose/index.ts";
import type { ResolvedModel } from "../../src/providers/index.ts";

let home: string | undefined;
afterEach(() => {
  if (home) rmSync(home, { recursive: true, force: true });
  home = undefined;
});

function newHome(): string {
  home = mkdtempSync(join(tmpdir(), "rienda-chat-models-"));
  mkdirSync(join(home, ".rienda", "agents"), { recursive: true });
  return home;
}

const statePath = (h: string) => join(h, ".rienda", "state.json");
const stateOf = (h: string) => JSON.parse(readFileSync(statePath(h), "utf8")) as Record<string, unknown>;

function model(over: Partial<ResolvedModel> = {}): ResolvedModel {
  return {
    ref: "p/m",
    provider: "p",
    alias: "m",
    wireId: "wire-m",
    protocol: "anthropic",
    baseUrl: "http://127.0.0.1:9",
    apiKey: "",
    headers: {},
    ...over,
  };
}

/** A prepared agent as far as the switches look at it. */
function prepared(m: ResolvedModel, thinking = "off"): PreparedAgent {
  return { agent: { id: "bot" }, model: m, thinking, notices: [] } as unknown as PreparedAgent;
}

/** A host over `agent`; `switches` records what switchAgentTo was asked, which prepares `next(changes)`. */
function host(
  h: string,
  agent: PreparedAgent,
  options: { remember?: boolean; next?: (changes: SwitchChanges) => PreparedAgent } = {},
) {
  const switches: SwitchChanges[] = [];
  const notices: string[] = [];
  let current = agent;
  const modelHost: ModelHost = {
    where: { home: h, env: {} },
    rememberPicks: options.remember ?? true,
    prepared: () => current,
    session: () => undefined,
    async switchAgentTo(changes) {
      switches.push(changes);
      current = options.next!(changes);
    },
    setPrepared(next) {
      current = next;
    },
    notice: (text) => notices.push(text),
  };
  return { commands: modelCommands(modelHost), current: () => current, switches, notices };
}

const moduleModel = () =>
  model({
    reasoning: true,
    thinkingModes: [
      { level: "low", maxTokens: 0 },
      { level: "high", maxTokens: 8000 },
    ],
  });

describe("setThinking", () => {
  test("puts a module model's level on it, with the mode's budget, and back off; state.json remembers the level per model", () => {
    const h = newHome();
    const chat = host(h, prepared(moduleModel()));
    expect(chat.commands.thinkingLevels()).toEqual(["off", "low", "high"]);
    expect(chat.commands.setThinking("high")).toEqual([]);
    expect(chat.current().thinking).toBe("high");
    expect(chat.current().model).toMatchObject({ thinkingLevel: "high", thinkingMaxTokens: 8000 });
    chat.commands.setThinking("low");
    expect(chat.current().model.thinkingLevel).toBe("low");
    expect(chat.current().model.thinkingMaxTokens).toBeUndefined();
    chat.commands.setThinking("none");
    expect(chat.current().thinking).toBe("off");
    expect(chat.current().model.thinkingLevel).toBeUndefined();
    expect(stateOf(h)).toEqual({ last_model: "p/m", last_thinking: { "p/m": "off" } });
  });

  test("a config.yaml model keeps its thinking_max_tokens through off and back", () => {
    const h = newHome();
    const chat = host(h, prepared(model({ thinkingLevel: "low", thinkingMaxTokens: 2048 }), "low"));
    chat.commands.setThinking("off");
    expect(chat.current().model.thinkingMaxTokens).toBeUndefined();
    chat.commands.setThinking("high");
    expect(chat.current().model).toMatchObject({ thinkingLevel: "high", thinkingMaxTokens: 2048 });
  });

  test("a level the model does not offer is refused listing its levels, and nothing changes", () => {
    const h = newHome();
    const agent = prepared(moduleModel());
    const chat = host(h, agent);
    expect(() => chat.commands.setThinking("max")).toThrow(
      'thinking max: p/m has no thinking level "max" (its levels: off, low, high)',
    );
    expect(chat.current()).toBe(agent);
    expect(() => readFileSync(statePath(h))).toThrow();
  });

  test("rpc (no picks remembered) writes no state.json; a damaged state.json is left alone and the switch made, with a notice", () => {
    const h = newHome();
    const rpc = host(h, prepared(moduleModel()), { remember: false });
    rpc.commands.setThinking("high");
    expect(() => readFileSync(statePath(h))).toThrow();
    writeFileSync(statePath(h), "[1, 2]");
    const chat = host(h, prepared(moduleModel()));
    const notices = chat.commands.setThinking("high");
    expect(chat.current().thinking).toBe("high");
    expect(notices).toEqual([
      `${statePath(h)}: is not a JSON object, so the pick was not recorded (fix or remove the file)`,
    ]);
    expect(readFileSync(statePath(h), "utf8")).toBe("[1, 2]");
  });
});

describe("switchModel", () => {
  test("prepares the agent again with the new model, the current one as the session's and the level to keep; state.json's last_model", async () => {
    const h = newHome();
    writeFileSync(statePath(h), JSON.stringify({ last_thinking: { "p/m": "high" }, theme: "dark" }));
    const chat = host(h, prepared(moduleModel(), "high"), {
      next: (changes) => prepared(model({ ref: changes.modelRef! }), "off"),
    });
    await chat.commands.switchModel("p/other");
    expect(chat.switches).toEqual([{ modelRef: "p/other", sessionModel: "p/m", sessionThinking: "high" }]);
    expect(chat.current().model.ref).toBe("p/other");
    expect(stateOf(h)).toEqual({ last_model: "p/other", last_thinking: { "p/m": "high" }, theme: "dark" });
  });

  test("a level switch after a model switch starts from the new model", async () => {
    const h = newHome();
    const chat = host(h, prepared(moduleModel()), {
      next: () => prepared(model({ ref: "p/cfg", thinkingMaxTokens: 1024, thinkingLevel: "low" }), "low"),
    });
    chat.commands.setThinking("high");
    await chat.commands.switchModel("p/cfg");
    chat.commands.setThinking("medium");
    expect(chat.current().model).toMatchObject({ ref: "p/cfg", thinkingLevel: "medium", thinkingMaxTokens: 1024 });
  });
});

describe("modelsToPick", () => {
  function config(h: string, models: string[]): void {
    const lines = [
      "providers:",
      "  p:",
      "    protocol: openai_chat_completions",
      "    base_url: http://127.0.0.1:9/v1",
      "    api_key: k",
      "    models:",
      ...models.map((m) => `      ${m}: { id: wire-${m} }`),
      "",
    ];
    writeFileSync(join(h, ".rienda", "config.yaml"), lines.join("\n"));
  }
  const agent = (h: string, id: string, modelLine = "") =>
    writeFileSync(join(h, ".rienda", "agents", `${id}.md`), `---\ndescription: d\n${modelLine}---\nx\n`);

  test("asks only when the agent names no model and nothing decides one", async () => {
    const h = newHome();
    config(h, ["a", "b"]);
    agent(h, "bot");
    agent(h, "fixed", "model: p/a\n");
    const start = { home: h, env: {} };
    expect(await modelsToPick(start, "bot")).toEqual(["p/a", "p/b"]);
    expect(await modelsToPick({ ...start, modelRef: "p/b" }, "bot")).toBeUndefined();
    expect(await modelsToPick({ ...start, sessionId: "01k" }, "bot")).toBeUndefined();
    expect(await modelsToPick(start, "fixed")).toBeUndefined();
    writeFileSync(statePath(h), JSON.stringify({ last_model: "p/b" }));
    expect(await modelsToPick(start, "bot")).toBeUndefined();
    writeFileSync(statePath(h), JSON.stringify({ last_model: "gone/model" }));
    expect(await modelsToPick(start, "bot")).toEqual(["p/a", "p/b"]);
  });

  test("does not ask with one model or none, nor for an agent that cannot be read: preparing it says what is wrong", async () => {
    const h = newHome();
    agent(h, "bot");
    expect(await modelsToPick({ home: h, env: {} }, "bot")).toBeUndefined();
    config(h, ["only"]);
    expect(await modelsToPick({ home: h, env: {} }, "bot")).toBeUndefined();
    config(h, ["a", "b"]);
    expect(await modelsToPick({ home: h, env: {} }, "ghost")).toBeUndefined();
  });
});
