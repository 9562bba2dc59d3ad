import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { streamModel, type StreamEvent } from "../../src/providers/index.ts";
import type { Message, ModelRequest } from "../../src/providers/types.ts";
import { sampleModel } from "./sample-request.ts";

const dir = mkdtempSync(join(tmpdir(), "rienda-replay-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function script(name: string, yaml: string): string {
  const path = join(dir, name);
  writeFileSync(path, yaml);
  return path;
}

const SCRIPT = script(
  "coder.yaml",
  `# the example agent's run
- thinking: I should count first.
  text: Counting the words.
  tool_calls:
    - name: word-count
      arguments: { path: notes.txt }
    - name: shell
      id: my-call
      arguments: '{"command": "ls"}'
  usage: { input_tokens: 120, output_tokens: 30 }
- notes.txt has 42 words.
`,
);

function replayRequest(path: string | undefined, assistantTurns: number): ModelRequest {
  const messages: Message[] = [{ role: "user", blocks: [{ type: "text", text: "count" }] }];
  for (let n = 0; n < assistantTurns; n++) {
    messages.push({ role: "assistant", blocks: [{ type: "text", text: `turn ${n + 1}` }] });
    messages.push({ role: "user", blocks: [{ type: "text", text: "more" }] });
  }
  const model = sampleModel({ protocol: "replay", baseUrl: "", apiKey: "", wireId: "replay-model" });
  if (path !== undefined) model.script = path;
  return { model, system: "", messages, tools: [], sessionId: "s" };
}

let reads = 0;
async function play(request: ModelRequest): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  const options = {
    fetch: () => Promise.reject(new Error("replay must not touch the network")),
    sleep: async () => {},
    readTextFile: async (path: string) => {
      reads++;
      return readFile(path, "utf8");
    },
  };
  for await (const event of streamModel(request, options)) events.push(event);
  return events;
}

describe("replay protocol", () => {
  test("answers the first request with the first turn: thinking, text and tool calls with stable ids", async () => {
    const events = await play(replayRequest(SCRIPT, 0));
    expect(events).toEqual([
      { type: "thinking_delta", thinking: "I should count first." },
      { type: "text_delta", text: "Counting the words." },
      { type: "tool_call", id: "replay_1_1", name: "word-count", arguments: { path: "notes.txt" } },
      { type: "tool_call", id: "my-call", name: "shell", arguments: { command: "ls" } },
      {
        type: "done",
        response: {
          message: {
            role: "assistant",
            blocks: [
              { type: "thinking", thinking: "I should count first." },
              { type: "text", text: "Counting the words." },
              {
                type: "tool_call",
                toolCallId: "replay_1_1",
                toolCallName: "word-count",
                toolCallArguments: { path: "notes.txt" },
              },
              { type: "tool_call", toolCallId: "my-call", toolCallName: "shell", toolCallArguments: { command: "ls" } },
            ],
          },
          stopReason: "tool_use",
          usage: { inputTokens: 120, outputTokens: 30 },
          responseModel: "replay-model",
        },
      },
    ]);
  });

  test("picks the turn from the number of assistant messages already in the conversation", async () => {
    const events = await play(replayRequest(SCRIPT, 1));
    expect(events.at(-1)).toEqual({
      type: "done",
      response: {
        message: { role: "assistant", blocks: [{ type: "text", text: "notes.txt has 42 words." }] },
        stopReason: "end_turn",
        responseModel: "replay-model",
      },
    });
  });

  test("running out of turns is an error naming the script, and is not retried", async () => {
    reads = 0;
    const events = await play(replayRequest(SCRIPT, 2));
    expect(reads).toBe(1);
    expect(events).toEqual([
      {
        type: "error",
        failure: {
          kind: "other",
          retryable: false,
          message: `replay script ${SCRIPT} ran out of turns: it has 2 turns and the conversation needs turn 3`,
        },
      },
    ]);
  });

  test("keeps arguments that are not JSON as the raw string, as a model's garbled call would be", async () => {
    const path = script("raw.yaml", "- tool_calls:\n    - name: shell\n      arguments: '{\"command\": '\n");
    const events = await play(replayRequest(path, 0));
    expect(events.find((event) => event.type === "tool_call")).toEqual({
      type: "tool_call",
      id: "replay_1_1",
      name: "shell",
      arguments: '{"command": ',
    });
  });

  test("reports a missing script, a broken one, and a model without a script, naming the file and the turn", async () => {
    const missing = join(dir, "nope.yaml");
    const problems: Array<[string | undefined, string]> = [
      [missing, `replay script ${missing} does not exist`],
      [
        script("map.yaml", "text: hi\n"),
        `${join(dir, "map.yaml")}: a replay script must be a YAML list of assistant turns`,
      ],
      [
        script("key.yaml", "- text: hi\n  toolcalls: []\n"),
        `${join(dir, "key.yaml")}: turn 1: unknown key "toolcalls" (expected text, thinking, tool_calls, usage)`,
      ],
      [
        script("empty.yaml", "- ok\n- thinking: only thoughts\n"),
        `${join(dir, "empty.yaml")}: turn 2: needs text or tool_calls (an empty answer is never a valid turn)`,
      ],
      [
        script("noname.yaml", "- tool_calls:\n    - arguments: {}\n"),
        `${join(dir, "noname.yaml")}: turn 1: tool_calls[0]: name must be a non-empty string`,
      ],
      [script("bad.yaml", "- text: [unclosed\n"), `${join(dir, "bad.yaml")}: invalid YAML: `],
      [undefined, `model "local/test" uses protocol replay but names no script`],
    ];
    for (const [path, message] of problems) {
      const events = await play(replayRequest(path, 0));
      expect(events).toHaveLength(1);
      const [only] = events;
      expect(only?.type).toBe("error");
      if (only?.type === "error") {
        expect(only.failure.retryable).toBe(false);
        expect(only.failure.message).toStartWith(message);
      }
    }
  });

  test("an aborted request plays nothing", async () => {
    const controller = new AbortController();
    controller.abort();
    const events: StreamEvent[] = [];
    for await (const event of streamModel(replayRequest(SCRIPT, 0), { signal: controller.signal })) events.push(event);
    expect(events).toEqual([
      { type: "error", failure: { kind: "aborted", retryable: false, message: "the model request was interrupted" } },
    ]);
  });
});
