import { describe, expect, test } from "bun:test";
import type { EngineEvent } from "../../../src/engine/index.ts";
import { ChatRenderer } from "../../../src/ui/chat/chat-renderer.ts";
import { plainStyle, type ChatStyle } from "../../../src/ui/chat/chat-style.ts";

function render(events: EngineEvent[], width = 40, expandThinking = false): string {
  let out = "";
  const renderer = new ChatRenderer({
    write: (t) => (out += t),
    style: plainStyle,
    width: () => width,
    expandThinking,
  });
  for (const event of events) renderer.event(event);
  renderer.closeBlock();
  return out;
}

const end = (text = "", thinking = ""): EngineEvent => ({
  type: "message_end",
  text,
  thinking,
  toolCalls: [],
  stopReason: "end_turn",
});

describe("rendering engine events in the chat", () => {
  test("the answer streams as it arrives and wraps between words", () => {
    let out = "";
    const renderer = new ChatRenderer({ write: (t) => (out += t), style: plainStyle, width: () => 20 });
    renderer.event({ type: "text_delta", text: "Hello there, " });
    expect(out).toBe("Hello there,");
    renderer.event({ type: "text_delta", text: "this answer is long enough to wrap." });
    renderer.event(end("..."));
    expect(out).toBe("Hello there, this\nanswer is long\nenough to wrap.\n");
  });

  test("a tool call is one line with its name and short arguments; its live output is an indented block", () => {
    const out = render([
      { type: "tool_call", id: "c1", name: "shell", arguments: { command: "ls" } },
      { type: "tool_output", id: "c1", name: "shell", stream: "stdout", text: "a.txt\nb" },
      { type: "tool_output", id: "c1", name: "shell", stream: "stdout", text: ".txt\n" },
      { type: "tool_result", id: "c1", name: "shell", text: "a.txt\nb.txt", isError: false },
      { type: "text_delta", text: "Two files." },
      end("Two files."),
    ]);
    expect(out).toBe('• shell {"command":"ls"}\n  │ a.txt\n  │ b.txt\nTwo files.\n');
  });

  test("a subagent's tool lines, output and results are indented under the call; its words are not shown", () => {
    const child = { parent: "x" };
    const grandchild = { parent: "x/x" };
    const out = render([
      { type: "tool_call", id: "x", name: "agent__b", arguments: { prompt: "go" } },
      { type: "subagent_start", sessionId: "s2", agent: "b", model: "p/m", workdir: "/w", ...child },
      { type: "text_delta", text: "child words", ...child },
      end("child words"),
      { type: "tool_call", id: "x", name: "agent__c", arguments: { prompt: "on" }, ...child },
      { type: "subagent_start", sessionId: "s3", agent: "c", model: "p/m", workdir: "/w", ...grandchild },
      { type: "tool_call", id: "x", name: "shell", arguments: { command: "ls" }, ...grandchild },
      { type: "tool_output", id: "x", name: "shell", stream: "stdout", text: "a.txt\n", ...grandchild },
      { type: "tool_result", id: "x", name: "shell", text: "a.txt", isError: false, ...grandchild },
      { type: "subagent_end", reason: "end_turn", usage: { inputTokens: 1, outputTokens: 1 }, ...grandchild },
      { type: "tool_result", id: "x", name: "agent__c", text: "c said so", isError: false, ...child },
      { type: "subagent_end", reason: "end_turn", usage: { inputTokens: 1, outputTokens: 1 }, ...child },
      { type: "tool_result", id: "x", name: "agent__b", text: "b said so", isError: false },
    ]);
    expect(out).toBe(
      '• agent__b {"prompt":"go"}\n  • agent__c {"prompt":"on"}\n    • shell {"command":"ls"}\n      │ a.txt\n    ✓ c said so\n  ✓ b said so\n',
    );
  });

  test("a subagent's notices and refusals sit under its call too; the run's own stay at the margin", () => {
    const child = { parent: "x" };
    const out = render([
      { type: "tool_call", id: "x", name: "agent__b", arguments: { prompt: "go" } },
      { type: "subagent_start", sessionId: "s2", agent: "b", model: "p/m", workdir: "/w", ...child },
      { type: "notice", message: "publish: branch pushed", ...child },
      { type: "tool_call", id: "y", name: "shell", arguments: { command: "rm x" }, ...child },
      { type: "hook", name: "guard", point: "beforeToolExecute", outcome: "refused", message: "no", ...child },
      { type: "subagent_end", reason: "end_turn", usage: { inputTokens: 1, outputTokens: 1 }, ...child },
      { type: "tool_result", id: "x", name: "agent__b", text: "b said so", isError: false },
      { type: "notice", message: "top-level notice" },
    ]);
    expect(out).toBe(
      '• agent__b {"prompt":"go"}\n  ! publish: branch pushed\n  • shell {"command":"rm x"}\n    ⊘ hook guard refused the call: no\n  ✓ b said so\n! top-level notice\n',
    );
  });

  test("each ctx.log call is a line of its own", () => {
    const out = render([
      { type: "tool_call", id: "c1", name: "count", arguments: {} },
      { type: "tool_output", id: "c1", name: "count", stream: "log", text: "one" },
      { type: "tool_output", id: "c1", name: "count", stream: "log", text: "two\n" },
      { type: "tool_output", id: "c1", name: "count", stream: "stdout", text: "par" },
      { type: "tool_output", id: "c1", name: "count", stream: "stdout", text: "tial\n" },
    ]);
    expect(out).toBe("• count\n  │ one\n  │ two\n  │ partial\n");
  });

  test("a result without live output shows its first line; an error result is marked", () => {
    const out = render([
      { type: "tool_call", id: "c1", name: "word-count", arguments: { path: "notes.txt" } },
      { type: "tool_result", id: "c1", name: "word-count", text: "4", isError: false },
      { type: "tool_call", id: "c2", name: "publish", arguments: {} },
      { type: "tool_result", id: "c2", name: "publish", text: "cancelled by the user", isError: true },
    ]);
    expect(out).toBe('• word-count {"path":"notes.txt"}\n  ✓ 4\n• publish\n  ✗ cancelled by the user\n');
  });

  test("an error after live output names how it ended (the last line)", () => {
    const out = render([
      { type: "tool_call", id: "c1", name: "shell", arguments: { command: "false" } },
      { type: "tool_output", id: "c1", name: "shell", stream: "stderr", text: "boom\n" },
      {
        type: "tool_result",
        id: "c1",
        name: "shell",
        text: "stderr:\nboom\ncommand exited with code 1",
        isError: true,
      },
    ]);
    expect(out).toBe('• shell {"command":"false"}\n  │ boom\n  ✗ command exited with code 1\n');
  });

  test("thinking is collapsed to one line with its size", () => {
    const out = render([
      { type: "thinking_delta", thinking: "Let me " },
      { type: "thinking_delta", thinking: "think about it." },
      { type: "text_delta", text: "Answer." },
      end("Answer.", "Let me think about it."),
    ]);
    expect(out).toBe("✻ thinking… 5 words\nAnswer.\n");
  });

  test("thinking can be shown in full, indented", () => {
    const out = render(
      [{ type: "thinking_delta", thinking: "Let me think." }, { type: "text_delta", text: "Ok." }, end("Ok.")],
      40,
      true,
    );
    expect(out).toBe("✻ thinking\n  ┊ Let me think.\nOk.\n");
  });

  test("a notice in the middle of streamed text starts on its own line", () => {
    const out = render([
      { type: "text_delta", text: "partial" },
      { type: "notice", message: 'hook "audit" failed in afterRun: boom' },
    ]);
    expect(out).toBe('partial\n! hook "audit" failed in afterRun: boom\n');
  });

  test("hook output, retries and refusals each get their line", () => {
    const out = render(
      [
        { type: "hook_output", name: "audit", point: "beforeRun", stream: "log", text: "audit: start\n" },
        { type: "retry", attempt: 1, delayMs: 1000, message: "HTTP 503" },
        { type: "hook", name: "guard", point: "beforeToolExecute", outcome: "refused", message: "refused by the user" },
        { type: "hook", name: "guard", point: "beforeToolExecute", outcome: "changed" },
      ],
      60,
    );
    expect(out).toBe(
      "  │ audit: start\ntransient error, retrying in 1.0s: HTTP 503\n  ⊘ hook guard refused the call: refused by the user\n",
    );
  });

  test("each turn ends with its duration and token usage, after the failure when there is one", () => {
    let out = "";
    const renderer = new ChatRenderer({ write: (t) => (out += t), style: plainStyle, width: () => 60 });
    renderer.event({ type: "text_delta", text: "Hi" });
    renderer.endTurn({ reason: "end_turn", usage: { inputTokens: 812, outputTokens: 44 } }, 1234);
    renderer.endTurn(
      { reason: "interrupted", message: "the run was interrupted", usage: { inputTokens: 0, outputTokens: 0 } },
      50,
    );
    renderer.endTurn(
      { reason: "error", message: "HTTP 401: bad key", usage: { inputTokens: 0, outputTokens: 0 } },
      2000,
    );
    expect(out).toBe(
      "Hi\n─ 1.2s · 812 in / 44 out tokens\n\n" +
        "interrupted\n─ 0.1s · no tokens\n\n" +
        "error: HTTP 401: bad key\n─ 2.0s · no tokens\n\n",
    );
  });

  test("a retry after streamed text says that text is void", () => {
    const out = render(
      [
        { type: "text_delta", text: "Half an ans" },
        { type: "retry", attempt: 1, delayMs: 1000, message: "stream cut" },
        { type: "text_delta", text: "Whole answer." },
        end("Whole answer."),
      ],
      80,
    );
    expect(out).toBe(
      "Half an ans\ntransient error, retrying in 1.0s: stream cut (the answer above is discarded)\nWhole answer.\n",
    );
  });

  test("long notices and failures wrap at the terminal width", () => {
    const out = render(
      [{ type: "retry", attempt: 1, delayMs: 500, message: "HTTP 503: the server is overloaded right now" }],
      30,
    );
    expect(out).toBe("transient error, retrying in\n0.5s: HTTP 503: the server is\noverloaded right now\n");
  });

  test("styles are applied (dim output, bold tool name) without breaking the line tracking", () => {
    const tag = (name: string) => (t: string) => `<${name}>${t}</${name}>`;
    const style: ChatStyle = {
      dim: tag("d"),
      bold: tag("b"),
      accent: tag("a"),
      warn: tag("w"),
      error: tag("e"),
      ok: tag("o"),
    };
    let out = "";
    const renderer = new ChatRenderer({ write: (t) => (out += t), style, width: () => 40 });
    renderer.event({ type: "tool_call", id: "c1", name: "shell", arguments: { command: "ls" } });
    renderer.event({ type: "tool_output", id: "c1", name: "shell", stream: "stdout", text: "a.txt\n" });
    renderer.event({ type: "thinking_delta", thinking: "hm" });
    renderer.event({ type: "text_delta", text: "Done" });
    renderer.closeBlock();
    expect(out).toBe(
      '<a>•</a> <b>shell</b> <d>{"command":"ls"}</d>\n<d>  │ </d><d>a.txt</d>\n<d>✻ thinking…</d><d> 1 words</d>\nDone\n',
    );
  });
});
