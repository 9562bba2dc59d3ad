import { describe, expect, test } from "bun:test";
import type { RunOutcome } from "../../../src/engine/index.ts";
import { RiendaError } from "../../../src/errors.ts";
import { createChatScreen, plainStyle, type ChatBackend, type TurnIo } from "../../../src/ui/chat/index.ts";
import { fakeTerminal, tick, visible } from "./fake-terminal.ts";

/** A scripted backend: records calls; each turn runs `onTurn`. */
function fakeBackend(onTurn: (prompt: string, io: TurnIo) => Promise<RunOutcome>) {
  const calls: string[] = [];
  let sessionId: string | null = null;
  let agent = "coder";
  let model = "p/m";
  let thinking = "off";
  const backend: ChatBackend = {
    status: () => ({ agent, model, thinking, sessionId, workdir: "/w" }),
    ensureSession: () => {
      if (sessionId) return { id: sessionId, created: false };
      sessionId = "s1";
      return { id: sessionId, created: true };
    },
    runTurn: (prompt, io) => {
      calls.push(`turn ${prompt}`);
      return onTurn(prompt, io);
    },
    newSession: () => {
      calls.push("new");
      sessionId = null;
    },
    listSessions: () => [
      { id: "s1", updatedAt: "2025-01-01T00:00:00Z", agent, model, title: "hello", messageCount: 2 },
    ],
    resume: async (id) => {
      if (id !== "s1") throw new RiendaError("session", `unknown session "${id}"`);
      calls.push(`resume ${id}`);
      sessionId = id;
    },
    switchAgent: async (id) => {
      if (id !== "planner") throw new RiendaError("agent", `unknown agent "${id}" (available: coder, planner)`);
      calls.push(`agent ${id}`);
      agent = id;
    },
    switchModel: async (ref) => {
      calls.push(`model ${ref}`);
      model = ref;
    },
    fork: async () => "forked",
    continueAt: async () => ({}),
    treeRows: () => [],
    exportTo: (path: string) => path,
    compact: async () => false,
    listAgents: () => [{ id: "coder", description: "Codes.", model: "p/m" }],
    listModels: async () => ["p/m", "p/n"],
    modelRows: async () => [],
    thinkingLevels: () => ["off", "low", "high"],
    setThinking: (level) => {
      if (!["off", "low", "high"].includes(level))
        throw new RiendaError(
          "usage",
          `thinking ${level}: ${model} has no thinking level "${level}" (its levels: off, low, high)`,
        );
      calls.push(`thinking ${level}`);
      thinking = level;
      return level === "low" ? ["state.json: is not a JSON object, so the pick was not recorded"] : [];
    },
    tools: () => [{ name: "shell", description: "Runs a command." }],
    hooks: () => ["guard"],
    attach: (path: string) => ({ name: path, description: "text, 5 bytes" }),
    pendingAttachments: () => [],
    dropAttachments: () => undefined,
    readAttachment: (path: string) => ({ type: "attachment", name: path, mediaType: "text/plain", text: "" }),
    attachBlock: (block) => ({ name: block.name, description: "text, 0 bytes" }),
    steer: () => 1,
    followUp: () => 2,
    withdraw: () => undefined,
    queued: () => [],
    nextFollowUp: () => undefined,
    clearQueue: () => 0,
    messages: () => [],
    stats: () => ({
      messages: 0,
      answers: 0,
      tokens: { input: 0, output: 0, cache_read: 0, cache_write: 0, reasoning: 0 },
      cost: null,
      cost_complete: true,
      context: { tokens: null, window: null, share: null },
    }),
    history: () => [{ role: "user", blocks: [{ type: "text", text: "earlier question" }] }],
    notices: () => [],
    gitBranch: () => undefined,
    rename: () => undefined,
    close: () => calls.push("close"),
  };
  return { backend, calls };
}

const answer =
  (text: string) =>
  async (_prompt: string, io: TurnIo): Promise<RunOutcome> => {
    io.emit({ type: "text_delta", text });
    io.emit({ type: "message_end", text, thinking: "", toolCalls: [], stopReason: "end_turn" });
    return { reason: "end_turn", usage: { inputTokens: 5, outputTokens: 2 } };
  };

function screen(options: { autoApprove?: boolean } = {}) {
  const { input, output } = fakeTerminal(80, 24);
  let hardExits = 0;
  const chat = createChatScreen({
    terminal: { input, output },
    style: plainStyle,
    autoApprove: options.autoApprove ?? false,
    version: "9.9.9",
    bracketedPaste: false,
    onHardExit: () => hardExits++,
  });
  return { chat, input, output, hardExits: () => hardExits };
}

async function until(predicate: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (predicate()) return;
    await tick(5);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A chat over the scripted backend, for commands: `step` sends a line and waits until `expected` shows. */
async function commandSession() {
  const { chat, input, output } = screen();
  const { backend, calls } = fakeBackend(answer("x"));
  const done = chat.run(backend, { resumed: false });
  const step = async (line: string, expected: string) => {
    input.send(`${line}\r`);
    await until(() => visible(output.text).includes(expected), expected);
  };
  await tick();
  return { input, output, calls, done, step };
}

describe("the chat screen", () => {
  test("two turns on one session, each ending with its usage; Ctrl-D quits", async () => {
    const { chat, input, output } = screen();
    const { backend, calls } = fakeBackend(answer("Hi!"));
    const done = chat.run(backend, { resumed: false });
    await tick();
    input.send("first\r");
    await until(() => visible(output.text).includes("─ "), "the first turn");
    input.send("second\r");
    await until(() => visible(output.text).split("─ ").length === 3, "the second turn");
    input.send("\u0004");
    expect(await done).toBe("quit");
    const text = visible(output.text);
    expect(calls).toEqual(["turn first", "turn second"]);
    expect(text).toContain("rienda 9.9.9 · agent coder · model p/m");
    expect(text.match(/session s1/g)).toHaveLength(1);
    expect(text).toContain("Hi!\n─ ");
    expect(text).toContain("5 in / 2 out tokens");
  });

  test("Ctrl-C twice at an empty prompt quits; typed text is only cleared", async () => {
    const { chat, input, output } = screen();
    const { backend } = fakeBackend(answer("x"));
    const done = chat.run(backend, { resumed: false });
    await tick();
    input.send("draft");
    await tick();
    input.send("\u0003");
    await tick();
    input.send("\u0003");
    await until(() => visible(output.text).includes("press Ctrl-C again"), "the hint");
    input.send("\u0003");
    expect(await done).toBe("quit");
  });

  test("Ctrl-C during a turn aborts it and the next input works", async () => {
    const { chat, input, output } = screen();
    let aborted = false;
    const { backend, calls } = fakeBackend(async (prompt, io) => {
      if (prompt === "slow") {
        await new Promise<void>((resolve) => io.signal.addEventListener("abort", () => resolve()));
        aborted = true;
        return {
          reason: "interrupted",
          message: "the run was interrupted",
          usage: { inputTokens: 0, outputTokens: 0 },
        };
      }
      return answer("fast")(prompt, io);
    });
    const done = chat.run(backend, { resumed: false });
    await tick();
    input.send("slow\r");
    await until(() => calls.length === 1, "the turn to start");
    input.send("\u0003");
    await until(() => visible(output.text).includes("interrupted"), "the interrupt");
    expect(aborted).toBe(true);
    input.send("next\r");
    await until(() => visible(output.text).includes("fast"), "the next turn");
    input.send("\u0004");
    await done;
  });

  test("a confirm during a turn asks, waits, and gets the answer", async () => {
    const { chat, input, output } = screen();
    let answered: boolean | undefined;
    const { backend } = fakeBackend(async (_prompt, io) => {
      answered = await chat.dialogs.confirm({ title: "Publish", body: "Push?" });
      return answer(answered ? "pushed" : "kept")(_prompt, io);
    });
    const done = chat.run(backend, { resumed: false });
    await tick();
    input.send("go\r");
    await until(() => visible(output.text).includes("[y/N]"), "the question");
    input.send("y");
    await until(() => visible(output.text).includes("pushed"), "the answer");
    expect(answered).toBe(true);
    input.send("\u0004");
    await done;
  });

  test("a subagent's confirm is indented two spaces per level, as its tool lines are", async () => {
    for (const autoApprove of [false, true]) {
      const { chat, input, output } = screen({ autoApprove });
      const { backend } = fakeBackend(async (prompt, io) => {
        const ok = await chat.dialogs.confirm({ title: "Publish", body: "Push?" }, 2);
        return answer(ok ? "pushed" : "kept")(prompt, io);
      });
      const done = chat.run(backend, { resumed: false });
      await tick();
      input.send("go\r");
      if (!autoApprove) {
        await until(() => visible(output.text).includes("[y/N]"), "the question");
        input.send("y");
      }
      await until(() => visible(output.text).includes("pushed"), "the answer");
      input.send("\u0004");
      await done;
      if (autoApprove) expect(visible(output.text)).toContain("\n    ✓ Publish (approved by -y)\n");
      else expect(visible(output.text)).toContain("\n    ? Publish\n      Push?\n      [y/N] yes\n");
    }
  });

  test("with -y a confirm is approved without asking, and notices are shown", async () => {
    const { chat, input, output } = screen({ autoApprove: true });
    const { backend } = fakeBackend(async (prompt, io) => {
      const ok = await chat.dialogs.confirm({ title: "Publish", body: "Push?" });
      chat.dialogs.notify({ title: "publish", body: ok ? "done" : "skipped" });
      return answer("ok")(prompt, io);
    });
    const done = chat.run(backend, { resumed: false });
    await tick();
    input.send("go\r");
    await until(() => visible(output.text).includes("─ "), "the turn");
    input.send("\u0004");
    await done;
    const text = visible(output.text);
    expect(text).toContain("✓ Publish (approved by -y)");
    expect(text).toContain("! publish: done");
    expect(text).not.toContain("[y/N]");
  });

  test("commands: help, unknown with a hint, agent switch refused and accepted, model, tools, new, resume, exit", async () => {
    const { input, output, calls, done, step } = await commandSession();
    await step("/help", "/resume [ID]");
    await step("/sesions", "unknown command /sesions: did you mean /sessions?");
    await step("/agent ghost", 'error: unknown agent "ghost" (available: coder, planner)');
    await step("/agent planner", "agent: planner (model p/m)");
    input.send("/model\r");
    await until(() => visible(output.text).includes("Switch to which model?"), "the model picker");
    // The picker marks the model in use and starts on it.
    expect(visible(output.text)).toContain("❯ p/m (current)\n  p/n\n");
    input.send("\u001b[B\r");
    await until(() => visible(output.text).includes("model: p/n"), "the switch");
    await step("/tools", "hooks: guard");
    await step("/new x", "usage: /new");
    await step("/new", "new session: your next message starts it");
    await step("/resume s1", "resumed session s1");
    await step("/sessions", "hello");
    input.send("/exit\r");
    expect(await done).toBe("quit");
    expect(calls).toEqual(["agent planner", "model p/n", "new", "resume s1"]);
    expect(visible(output.text)).not.toContain("p/n (current)");
    expect(visible(output.text)).toContain("> earlier question");
  });

  test("/thinking: a picker of the model's levels marking the current one, a level named, an unknown one refused; /show-thinking", async () => {
    const { input, output, calls, done, step } = await commandSession();
    input.send("/thinking\r");
    await until(() => visible(output.text).includes("Thinking level of p/m?"), "the level picker");
    expect(visible(output.text)).toContain("❯ off (current)\n  low\n  high\n");
    input.send("\u001b[B\u001b[B\r");
    await until(
      () => visible(output.text).includes("thinking: high (model p/m), from your next message"),
      "the switch",
    );
    await step(
      "/thinking ultra",
      'error: thinking ultra: p/m has no thinking level "ultra" (its levels: off, low,\nhigh)',
    );
    await step("/thinking low", "thinking: low (model p/m)");
    expect(visible(output.text)).toContain("state.json: is not a JSON object");
    await step("/model p/n", "model: p/n · thinking low");
    await step("/show-thinking", "thinking: shown in full");
    input.send("/exit\r");
    expect(await done).toBe("quit");
    expect(calls).toEqual(["thinking high", "thinking low", "model p/n"]);
  });

  test("stop() ends a running turn and the chat", async () => {
    const { chat, input } = screen();
    const { backend, calls } = fakeBackend(async (_prompt, io) => {
      await new Promise<void>((resolve) => io.signal.addEventListener("abort", () => resolve()));
      return { reason: "interrupted", usage: { inputTokens: 0, outputTokens: 0 } };
    });
    const done = chat.run(backend, { resumed: false });
    await tick();
    input.send("wait\r");
    await until(() => calls.length === 1, "the turn");
    chat.stop();
    expect(await done).toBe("signal");
  });
});
