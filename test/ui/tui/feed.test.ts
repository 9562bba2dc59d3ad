/** Engine events into transcript blocks, and the status line's counts (plain theme, no terminal). */
import { describe, expect, test } from "bun:test";
import type { EngineEvent } from "../../../src/engine/index.ts";
import { EventFeed } from "../../../src/ui/tui/event-feed.ts";
import { ActivityLine } from "../../../src/ui/tui/activity-line.ts";
import { StatusLine } from "../../../src/ui/tui/status-line.ts";
import { createTuiTheme } from "../../../src/ui/tui/theme.ts";
import { Transcript } from "../../../src/ui/tui/transcript.ts";

const theme = createTuiTheme(false);

function feed(events: EngineEvent[], width = 60): { lines: string[]; transcript: Transcript; feed: EventFeed } {
  const transcript = new Transcript(theme);
  const f = new EventFeed(transcript, theme, () => false);
  for (const event of events) f.event(event);
  return { lines: transcript.render(width).map((l) => l.replaceAll("\x1b[0m", "").trimEnd()), transcript, feed: f };
}

const end = { type: "message_end" as const, text: "", thinking: "", toolCalls: [], stopReason: "end_turn" as const };

describe("EventFeed", () => {
  test("thinking, the answer, a tool call with output and result, in order", () => {
    const { lines } = feed([
      { type: "thinking_delta", thinking: "list them" },
      { type: "text_delta", text: "Looking" },
      { type: "text_delta", text: " now." },
      { ...end, stopReason: "tool_use" },
      { type: "tool_call", id: "c1", name: "shell", arguments: { command: "ls" } },
      { type: "tool_output", id: "c1", name: "shell", stream: "stdout", text: "a.txt\n" },
      { type: "tool_result", id: "c1", name: "shell", text: "a.txt", isError: false },
      { type: "text_delta", text: "Done." },
      end,
    ]);
    expect(lines).toEqual(["✻ thinking… 2 words", "Looking now.", "• $ ls", "  │ a.txt", "Done."]);
  });

  test("a subagent's calls and notices nest under its call; its own words are not shown", () => {
    const { lines } = feed([
      { type: "tool_call", id: "c1", name: "agent__reviewer", arguments: { prompt: "go" } },
      { type: "subagent_start", sessionId: "s", agent: "reviewer", model: "p/m", workdir: "/w", parent: "c1" },
      { type: "text_delta", text: "subagent words", parent: "c1" },
      { type: "tool_call", id: "c1", name: "shell", arguments: { command: "ls" }, parent: "c1" },
      { type: "tool_result", id: "c1", name: "shell", text: "ok", isError: false, parent: "c1" },
      { type: "notice", message: "careful", parent: "c1" },
      { type: "subagent_end", reason: "end_turn", usage: { inputTokens: 1, outputTokens: 1 }, parent: "c1" },
      { type: "tool_result", id: "c1", name: "agent__reviewer", text: "fine", isError: false },
    ]);
    expect(lines).toEqual(['• agent__reviewer {"prompt":"go"}', "  • $ ls", "    ✓ ok", "  ! careful", "  ✓ fine"]);
  });

  test("a retry says the answer shown is discarded; an interrupted turn marks the call still running", () => {
    const { transcript, feed: f } = feed([
      { type: "text_delta", text: "Half" },
      { type: "retry", attempt: 1, delayMs: 600, message: "HTTP 503" },
      { type: "tool_call", id: "c1", name: "shell", arguments: {} },
    ]);
    f.endTurn({ reason: "interrupted", usage: { inputTokens: 10, outputTokens: 2 } }, 1200);
    const lines = transcript.render(80).map((l) => l.trimEnd());
    expect(lines).toEqual([
      "Half",
      "transient error, retrying in 0.6s: HTTP 503 (the answer above is discarded)",
      "• shell",
      "  ✗ the run was interrupted before this tool call finished",
      "interrupted",
      "─ 1.2s · 10 in / 2 out tokens",
    ]);
  });

  test("Ctrl-O expands every tool block and the thinking", () => {
    const { transcript } = feed([
      { type: "thinking_delta", thinking: "deep thought" },
      { type: "tool_call", id: "c1", name: "shell", arguments: { command: "ls" } },
    ]);
    transcript.toggleExpanded();
    expect(transcript.render(60)).toEqual([
      "✻ thinking",
      "  ┊ deep thought",
      "• shell",
      "    {",
      '      "command": "ls"',
      "    }",
    ]);
  });
});

describe("EventFeed: calls drawn when asked for", () => {
  const asked = {
    ...end,
    stopReason: "tool_use" as const,
    toolCalls: [
      { id: "c1", name: "shell", arguments: { command: "rm -rf build" } },
      { id: "c2", name: "shell", arguments: { command: "ls" } },
    ],
  };

  test("the calls show when the model asks for them; a hook's refusal goes under the call it refused, not above", () => {
    const { lines } = feed([
      asked,
      { type: "hook", name: "guard", point: "beforeToolExecute", outcome: "refused", message: "no rm" },
      { type: "tool_call", id: "c1", name: "shell", arguments: { command: "rm -rf build" } },
      { type: "tool_result", id: "c1", name: "shell", text: "refused by hook guard: no rm", isError: true },
      { type: "tool_call", id: "c2", name: "shell", arguments: { command: "ls -1" } },
      { type: "tool_output", id: "c2", name: "shell", stream: "stdout", text: "\x1b[32mgreen.txt\x1b[0m\n" },
      { type: "tool_result", id: "c2", name: "shell", text: "\x1b[32mgreen.txt\x1b[0m", isError: false },
    ]);
    // The second call runs with the arguments a hook rewrote; colour codes of its output are dropped.
    expect(lines).toEqual([
      "• $ rm -rf build",
      "  ⊘ hook guard refused the call: no rm",
      "  ✗ refused by hook guard: no rm",
      "• $ ls -1",
      "  │ green.txt",
    ]);
  });

  test("a call asked for and never started is marked interrupted at the end of the turn", () => {
    const { lines, feed: f, transcript } = feed([asked]);
    expect(lines).toEqual(["• $ rm -rf build", "• $ ls"]);
    f.endTurn({ reason: "interrupted", usage: { inputTokens: 1, outputTokens: 1 } }, 100);
    expect(transcript.render(60).map((l) => l.trimEnd())).toContain(
      "  ✗ the run was interrupted before this tool call finished",
    );
  });
});

describe("StatusLine", () => {
  const status = { agent: "coder", model: "p/m", sessionId: "01abc", workdir: "/w", contextWindow: 2000 };

  test("agent, model, directory and branch, tokens with cache, cost when every answer was priced, context share", () => {
    const line = new StatusLine(
      theme,
      () => status,
      () => "main",
    );
    line.refresh();
    line.event({ ...end, usage: { inputTokens: 300, outputTokens: 20, cacheReadTokens: 200 }, cost: 0.01 });
    line.event({ ...end, usage: { inputTokens: 400, outputTokens: 100 }, cost: 0.02 });
    expect(line.render(200)).toEqual([
      "agent coder · model p/m · /w (main) · 700 in / 120 out (cache 200 read / 0 written) · $0.030 · context 25%",
    ]);
  });

  test("the cost kept as a lower bound once an answer was not priced; what does not fit goes on a second line", () => {
    const line = new StatusLine(
      theme,
      () => ({ ...status, contextWindow: undefined }),
      () => undefined,
    );
    line.event({ ...end, usage: { inputTokens: 5, outputTokens: 5 }, cost: 0.01 });
    line.event({ ...end, usage: { inputTokens: 5, outputTokens: 5 } });
    expect(line.render(40)).toEqual(["agent coder · model p/m · /w", "10 in / 10 out · ≥ $0.010"]);
  });

  test("the context share is that of the current session: another session's is not shown", () => {
    let id: string | null = "01abc";
    const line = new StatusLine(
      theme,
      () => ({ ...status, sessionId: id }),
      () => undefined,
    );
    line.event({ ...end, usage: { inputTokens: 500, outputTokens: 0 } });
    expect(line.render(200)[0]).toEndWith("context 25%");
    id = null;
    expect(line.render(200)[0]).not.toContain("context");
    id = "01abc";
    expect(line.render(200)[0]).toEndWith("context 25%");
  });
});

describe("ActivityLine", () => {
  test("the phase follows the turn's events, with its time and one hint; at a question no hint", () => {
    const line = new ActivityLine(theme, () => undefined);
    expect(line.render(80)).toEqual([]);
    line.set("waiting for the model", "Esc interrupts");
    expect(line.render(80)[0]).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] waiting for the model 0\.\ds · Esc interrupts$/);
    line.event({ type: "tool_call", id: "c1", name: "shell", arguments: { command: "ls" } });
    expect(line.render(80)[0]).toMatch(/ shell 0\.\ds · Esc interrupts$/);
    line.event({ type: "notice", message: "compacting the conversation: p/m is condensing 4 messages" });
    expect(line.render(80)[0]).toMatch(/ compacting 0\.\ds/);
    line.asking = true;
    expect(line.render(80)[0]).toMatch(/^. waiting for your answer$/);
    line.clear();
    expect(line.render(80)).toEqual([]);
  });
});
