/**
 * Models chosen per session and thinking levels in the chats (docs/chat.md
 * "Models and thinking levels", go-current.md §5-§6), through a real
 * pseudo-terminal: an agent without a model opens the model picker, the
 * pick is the request's model and state.json's last_model; `/thinking
 * LEVEL` puts the level on the wire from the next message and into
 * state.json's last_thinking; a continued session keeps its model.
 */
import { afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { Instance } from "../support/instance.ts";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";
import { readEntries, sessionFiles } from "../support/session-reader.ts";
import { hasTmux, Terminal } from "../support/tmux.ts";
import { chatIdle } from "../support/tui-chat.ts";

setDefaultTimeout(60_000);

let server: ProviderServer | undefined;
let inst: Instance | undefined;
let term: Terminal | undefined;
afterEach(async () => {
  term?.dispose();
  await server?.close();
  inst?.dispose();
  term = undefined;
  server = undefined;
  inst = undefined;
});
beforeAll(() => {
  if (!hasTmux()) throw new Error("these tests need tmux (apt-get install -y tmux)");
});

/** config.yaml with provider `p` offering two models (p/a: wire-a, p/b: wire-b) over chat completions, and agent `bot` without a model. */
async function twoModels(): Promise<{ inst: Instance; server: ProviderServer }> {
  server = await startProviderServer();
  inst = new Instance();
  inst.config(
    [
      "providers:",
      "  p:",
      "    protocol: openai_chat_completions",
      `    base_url: ${server.url}/v1`,
      "    api_key: k",
      "    models:",
      "      a: { id: wire-a }",
      "      b: { id: wire-b }",
      "",
    ].join("\n"),
  );
  inst.agent("bot", "---\ndescription: An agent without a model.\n---\nBe brief.\n");
  return { inst, server };
}

const bodyOf = (i: number) => server!.requests[i]!.body as Record<string, unknown>;
const stateOf = (home: Instance) =>
  JSON.parse(readFileSync(home.riendaPath("state.json"), "utf8")) as Record<string, unknown>;

/** `rienda ARGS` full-screen in a 100x24 terminal without colours. */
function fullScreen(home: Instance, args: string[]): Terminal {
  term = Terminal.start(home, { fullScreen: true, width: 100, height: 24, env: { NO_COLOR: "1" }, args });
  return term;
}

/** The full-screen chat is idle: no activity line, and the status line knows the agent. */
async function idle(t: Terminal, turns = 0): Promise<string> {
  return chatIdle(t, turns, "bot");
}

describe("the full-screen chat with an agent without a model", () => {
  test("the model picker opens; the pick is the request's model and state.json's; /thinking high puts reasoning_effort on the next request", async () => {
    const { inst, server } = await twoModels();
    server.script({ text: "From b." }, { text: "Thought hard." });
    const t = fullScreen(inst, ["-a", "bot"]);
    await t.waitFor("? Which model? (agent bot names none; rienda remembers your pick)");
    expect(t.screen()).toMatch(/❯ p\/a\n {2}p\/b/);
    t.keys("Down");
    await t.waitFor(() => /❯ p\/b/.test(t.screen()));
    t.keys("Enter");
    await idle(t);
    expect(t.screen()).toContain("agent bot · model p/b · ");
    expect(stateOf(inst)).toEqual({ last_model: "p/b" });
    t.line("hello");
    await idle(t, 1);
    expect(bodyOf(0).model).toBe("wire-b");
    expect("reasoning_effort" in bodyOf(0)).toBe(false);

    t.line("/thinking high");
    await t.waitFor("thinking: high (model p/b), from your next message");
    expect(t.screen()).toContain("agent bot · model p/b · thinking high · ");
    t.line("think about it");
    await idle(t, 2);
    expect(bodyOf(1)).toMatchObject({ model: "wire-b", reasoning_effort: "high" });
    expect(stateOf(inst)).toEqual({ last_model: "p/b", last_thinking: { "p/b": "high" } });
    t.keys("C-d");
    expect(await t.exitCode()).toBe(0);
    // The level is on the session's branch, in the Go program's shape, before the message it applies to.
    const [file] = sessionFiles(inst.home);
    const entries = readEntries(file!);
    expect(entries.filter((e) => e.kind === "thinking")).toMatchObject([{ thinkingLevel: "high" }]);
    const thinking = entries.find((e) => e.kind === "thinking")!;
    expect(entries.find((e) => e.kind === "message" && e.parentId === thinking.id)).toMatchObject({ role: "user" });
  });

  test("/thinking without a level lists the model's levels, the current one marked; an unknown level is refused with them", async () => {
    const { inst, server } = await twoModels();
    inst.write(inst.riendaPath("state.json"), JSON.stringify({ last_model: "p/a", editor: "kept" }));
    server.script({ text: "ok" });
    const t = fullScreen(inst, ["-a", "bot"]);
    // state.json's last_model decides: no picker.
    await idle(t);
    expect(t.history()).not.toContain("Which model?");
    t.line("/thinking max");
    await t.waitFor('error: thinking max: p/a has no thinking level "max"');
    expect(t.history().replace(/\s+/g, " ")).toContain(
      'no thinking level "max" (its levels: off, minimal, low, medium, high)',
    );
    t.line("/thinking");
    await t.waitFor("? Thinking level of p/a?");
    expect(t.screen()).toMatch(/❯ off \(current\)\n {2}minimal\n {2}low\n {2}medium\n {2}high/);
    t.type("low");
    await t.waitFor(() => /❯ low/.test(t.screen()));
    t.keys("Enter");
    await t.waitFor("thinking: low (model p/a)");
    t.line("go");
    await idle(t, 1);
    expect(bodyOf(0)).toMatchObject({ model: "wire-a", reasoning_effort: "low" });
    expect(stateOf(inst)).toEqual({ editor: "kept", last_model: "p/a", last_thinking: { "p/a": "low" } });
  });

  test("/model lists the roster's models and keeps the thinking level; the switch is recorded in state.json", async () => {
    const { inst, server } = await twoModels();
    server.script({ text: "one" });
    const t = fullScreen(inst, ["-a", "bot", "-m", "p/a", "--thinking", "medium"]);
    await idle(t);
    // -m decides: no picker, and nothing is remembered until the user picks.
    expect(t.history()).not.toContain("Which model?");
    expect(existsSync(inst.riendaPath("state.json"))).toBe(false);
    expect(t.screen()).toContain("agent bot · model p/a · thinking medium · ");
    t.line("/model");
    await t.waitFor("? Switch to which model?");
    expect(t.screen()).toMatch(/❯ p\/a \(current\)\n {2}p\/b/);
    t.keys("Down", "Enter");
    await t.waitFor("model: p/b · thinking medium");
    t.line("go");
    await idle(t, 1);
    expect(bodyOf(0)).toMatchObject({ model: "wire-b", reasoning_effort: "medium" });
    expect(stateOf(inst)).toEqual({ last_model: "p/b" });
  });

  test("no model offered at all: the chat does not open, and says how to declare a provider", async () => {
    inst = new Instance();
    inst.agent("bot", "---\ndescription: An agent without a model.\n---\nBe brief.\n");
    const t = fullScreen(inst, ["-a", "bot"]);
    expect(await t.exitCode()).toBe(1);
    // The terminal wraps the line where it is full.
    const said = t.history().replace(/\n/g, "");
    expect(said).toContain('rienda: agent "bot" names no model, and no provider offers one');
    expect(said).toContain("rienda auth (docs/providers.md)");
  });

  test("cancelling the model picker leaves at once, exit 0, writing nothing", async () => {
    const { inst } = await twoModels();
    const t = fullScreen(inst, ["-a", "bot"]);
    await t.waitFor("? Which model?");
    t.keys("Escape");
    expect(await t.exitCode()).toBe(0);
    expect(existsSync(inst.riendaPath("state.json"))).toBe(false);
    expect(sessionFiles(inst.home)).toEqual([]);
  });
});

// Terminal.start gives a chat without fullScreen --plain: the line chat.
describe("the line chat (--plain) with an agent without a model", () => {
  test("the model picker, then /thinking high on the wire; -c continues with the session's model and level without asking, and /new keeps them", async () => {
    const { inst, server } = await twoModels();
    server.script({ text: "From b." }, { text: "Thought." }, { text: "Continued." }, { text: "Fresh." });
    term = Terminal.start(inst, { args: ["-a", "bot"] });
    await term.waitFor("? Which model? (agent bot names none; rienda remembers your pick)");
    term.keys("Down");
    term.keys("Enter");
    await term.waitForPrompt();
    expect(term.history()).toContain("agent bot · model p/b");
    term.line("hello");
    await term.waitForPrompt(1);
    term.line("/thinking high");
    await term.waitFor("thinking: high (model p/b), from your next message");
    term.line("think");
    await term.waitForPrompt(2);
    term.keys("C-d");
    expect(await term.exitCode()).toBe(0);
    expect(bodyOf(0).model).toBe("wire-b");
    expect(bodyOf(1)).toMatchObject({ model: "wire-b", reasoning_effort: "high" });
    expect(stateOf(inst)).toEqual({ last_model: "p/b", last_thinking: { "p/b": "high" } });
    const [file] = sessionFiles(inst.home);
    expect(readEntries(file!)[0]).toMatchObject({ kind: "header", agent: "bot", model: "p/b" });
    term.dispose();

    // Another model remembered since: the continued session still runs its own.
    inst.write(inst.riendaPath("state.json"), JSON.stringify({ last_model: "p/a" }));
    term = Terminal.start(inst, { args: ["-c"] });
    await term.waitFor("resumed session");
    await term.waitForPrompt();
    expect(term.history()).not.toContain("Which model?");
    term.line("again");
    await term.waitForPrompt(1);
    term.line("/new");
    await term.waitFor("new session: your next message starts it (agent bot, model p/b · thinking high)");
    term.line("fresh start");
    await term.waitForPrompt(2);
    term.keys("C-d");
    expect(await term.exitCode()).toBe(0);
    expect(bodyOf(2)).toMatchObject({ model: "wire-b", reasoning_effort: "high" });
    expect(bodyOf(3)).toMatchObject({ model: "wire-b", reasoning_effort: "high" });
    const fresh = sessionFiles(inst.home).find((f) => f !== file)!;
    expect(readEntries(fresh).filter((e) => e.kind === "thinking")).toMatchObject([{ thinkingLevel: "high" }]);
  });
});
