import { describe, expect, test } from "bun:test";
import type { EngineEvent } from "../../src/engine/index.ts";
import { formatDelay, PlainPrinter } from "../../src/ui/plain-printer.ts";

describe("formatDelay", () => {
  test("every wait reads in seconds with one decimal", () => {
    expect([0, 40, 599, 600, 1000, 1949, 8000, 61_000].map(formatDelay)).toEqual([
      "0.0s",
      "0.0s",
      "0.6s",
      "0.6s",
      "1.0s",
      "1.9s",
      "8.0s",
      "61.0s",
    ]);
  });
});

describe("PlainPrinter", () => {
  test("a retry line names the wait as cli.md shows it", () => {
    let err = "";
    const sink = { write: (t: string) => void (err += t) };
    const printer = new PlainPrinter({ write: () => {} }, sink);
    printer.event({ type: "retry", attempt: 1, delayMs: 599, message: "HTTP 503: busy" });
    expect(err).toBe("transient error, retrying in 0.6s: HTTP 503: busy\n");
  });
});

function printer(): { print(...events: EngineEvent[]): void; out: () => string; err: () => string } {
  let out = "";
  let err = "";
  const p = new PlainPrinter({ write: (t: string) => void (out += t) }, { write: (t: string) => void (err += t) });
  return {
    print: (...events) => {
      for (const e of events) p.event(e);
    },
    out: () => out,
    err: () => err,
  };
}

const usage = { inputTokens: 0, outputTokens: 0 };
const start = (parent: string): EngineEvent => ({
  type: "subagent_start",
  sessionId: "s",
  agent: "a",
  model: "p/m",
  workdir: "/w",
  parent,
});
const end = (parent: string): EngineEvent => ({ type: "subagent_end", reason: "end_turn", usage, parent });

describe("PlainPrinter and subagents", () => {
  test("a subagent's lines are indented under the call, its answer is not printed", () => {
    const p = printer();
    p.print(
      { type: "tool_call", id: "c1", name: "agent__reviewer", arguments: { prompt: "go" } },
      start("c1"),
      { type: "tool_call", id: "k1", name: "shell", arguments: { command: "ls" }, parent: "c1" },
      { type: "tool_output", id: "k1", name: "shell", stream: "stdout", text: "a.txt\nb.t", parent: "c1" },
      { type: "tool_output", id: "k1", name: "shell", stream: "stdout", text: "xt\n", parent: "c1" },
      { type: "tool_result", id: "k1", name: "shell", text: "bad\nworse", isError: true, parent: "c1" },
      { type: "message_end", text: "child answer", thinking: "", toolCalls: [], stopReason: "end_turn", parent: "c1" },
      end("c1"),
      { type: "tool_result", id: "c1", name: "agent__reviewer", text: "child answer", isError: false },
      { type: "message_end", text: "parent answer", thinking: "", toolCalls: [], stopReason: "end_turn" },
    );
    expect(p.out()).toBe("parent answer\n");
    expect(p.err()).toBe(
      'tool: agent__reviewer {"prompt":"go"}\n  tool: shell {"command":"ls"}\n  a.txt\n  b.txt\n  tool failed: bad\n  worse\n',
    );
  });

  test("levels follow the running subagents, even when call ids repeat across levels (replay ids)", () => {
    const p = printer();
    p.print(
      { type: "tool_call", id: "replay_1_1", name: "agent__a", arguments: {} },
      start("replay_1_1"),
      { type: "tool_call", id: "replay_1_1", name: "agent__b", arguments: {}, parent: "replay_1_1" },
      start("replay_1_1"),
      { type: "tool_call", id: "replay_1_1", name: "echo", arguments: {}, parent: "replay_1_1" },
      end("replay_1_1"),
      { type: "tool_call", id: "replay_2_1", name: "echo", arguments: {}, parent: "replay_1_1" },
      end("replay_1_1"),
      { type: "tool_call", id: "replay_2_1", name: "echo", arguments: {} },
    );
    expect(p.err()).toBe("tool: agent__a {}\n  tool: agent__b {}\n    tool: echo {}\n  tool: echo {}\ntool: echo {}\n");
  });
});

describe("PlainPrinter and control characters", () => {
  const sinks = (stdoutIsTTY: boolean) => {
    let out = "";
    let err = "";
    const p = new PlainPrinter(
      { write: (t: string) => void (out += t), isTTY: stdoutIsTTY },
      { write: (t: string) => void (err += t) },
    );
    return { p, out: () => out, err: () => err };
  };
  const answer = (text: string): EngineEvent => ({
    type: "message_end",
    text,
    thinking: "",
    toolCalls: [],
    stopReason: "end_turn",
  });

  test("stderr shows them wherever it goes; the answer is exact unless stdout is a terminal", () => {
    for (const tty of [false, true]) {
      const { p, out, err } = sinks(tty);
      p.event({ type: "tool_call", id: "k1", name: "x\u009b", arguments: { a: "\u0085" } });
      p.event({ type: "tool_output", id: "k1", name: "x", stream: "stdout", text: "\u001b]0;t\u0007\n" });
      p.event({ type: "notice", message: "n\u001b[8m" });
      p.event(answer("a\u001b[2J"));
      expect(err()).toBe(
        String.raw`tool: x\x9b {"a":"\x85"}` +
          "\n" +
          String.raw`\x1b]0;t\x07` +
          "\n" +
          String.raw`rienda: n\x1b[8m` +
          "\n",
      );
      expect(out()).toBe(tty ? String.raw`a\x1b[2J` + "\n" : "a\u001b[2J\n");
    }
  });

  test("a subagent's output redrawn with carriage returns: each state on a line of its own, indented", () => {
    const { p, err } = sinks(false);
    p.event({ type: "tool_call", id: "c1", name: "agent__a", arguments: {} });
    p.event(start("c1"));
    p.event({
      type: "tool_output",
      id: "k1",
      name: "shell",
      stream: "stdout",
      text: "10%\r50%\r100%\r\n",
      parent: "c1",
    });
    p.event({ type: "tool_result", id: "k1", name: "shell", text: "one\rtwo", isError: true, parent: "c1" });
    expect(err()).toBe("tool: agent__a {}\n  10%\n  50%\n  100%\r\n  tool failed: one\n  two\n");
  });
});
