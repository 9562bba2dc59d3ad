import { describe, expect, test } from "bun:test";
import { createOpenAIChatStreamMapper } from "../../src/providers/openai-chat-stream.ts";
import { TextCallScanner } from "../../src/providers/text-call-scanner.ts";
import type { TextCallContext } from "../../src/providers/text-call-recovery.ts";
import { formsOf, lookalikeForm, readTextToolCalls } from "../../src/providers/text-tool-calls.ts";
import type { StreamEvent, TextToolCallSetting } from "../../src/providers/index.ts";

const TOOLS = new Set(["shell", "read"]);
const ALL = formsOf("auto");

describe("reading tool calls written as text", () => {
  test("hermes: one call per <tool_call> block, text around them kept", () => {
    const text =
      'Let me look.\n<tool_call>\n{"name": "shell", "arguments": {"command": "ls"}}\n</tool_call>\n<tool_call>{"name":"read","arguments":{"path":"a"}}</tool_call>';
    expect(readTextToolCalls(text, ["hermes"], TOOLS)).toEqual({
      form: "hermes",
      calls: [
        { name: "shell", arguments: '{"command":"ls"}' },
        { name: "read", arguments: '{"path":"a"}' },
      ],
      text: "Let me look.",
    });
  });

  test("hermes: a last block the answer ended inside still reads when its JSON is whole; a broken one does not", () => {
    expect(
      readTextToolCalls('<tool_call>{"name":"shell","arguments":{"command":"ls"}}', ["hermes"], TOOLS)?.calls,
    ).toEqual([{ name: "shell", arguments: '{"command":"ls"}' }]);
    expect(readTextToolCalls('<tool_call>{"name":"shell","arguments":{"command":', ["hermes"], TOOLS)).toBeUndefined();
    expect(readTextToolCalls('<tool_call>{"arguments":{}}</tool_call>', ["hermes"], TOOLS)).toBeUndefined();
  });

  test("arguments given as JSON text are kept as they are; parameters is read like arguments", () => {
    expect(
      readTextToolCalls(
        '<tool_call>{"name":"shell","arguments":"{\\"command\\":\\"ls\\"}"}</tool_call>',
        ["hermes"],
        TOOLS,
      )?.calls,
    ).toEqual([{ name: "shell", arguments: '{"command":"ls"}' }]);
    expect(
      readTextToolCalls('<tool_call>{"name":"shell","parameters":{"command":"ls"}}</tool_call>', ["hermes"], TOOLS)
        ?.calls,
    ).toEqual([{ name: "shell", arguments: '{"command":"ls"}' }]);
  });

  test("mistral: the JSON list form and the [ARGS] form", () => {
    expect(
      readTextToolCalls(
        '[TOOL_CALLS][{"name": "shell", "arguments": {"command": "ls"}}, {"name": "read", "arguments": {"path": "a"}}]',
        ["mistral"],
        TOOLS,
      )?.calls,
    ).toEqual([
      { name: "shell", arguments: '{"command":"ls"}' },
      { name: "read", arguments: '{"path":"a"}' },
    ]);
    expect(
      readTextToolCalls(
        '[TOOL_CALLS]shell[ARGS]{"command": "ls"}[TOOL_CALLS]read[CALL_ID]abc123456[ARGS]{"path": "a"}',
        ["mistral"],
        TOOLS,
      )?.calls,
    ).toEqual([
      { name: "shell", arguments: '{"command":"ls"}' },
      { name: "read", arguments: '{"path":"a"}' },
    ]);
    expect(readTextToolCalls('[TOOL_CALLS]shell[ARGS]{"command": "l', ["mistral"], TOOLS)).toBeUndefined();
  });

  test("llama3: after <|python_tag|>, and a bare object only when it names a tool of the request", () => {
    expect(
      readTextToolCalls('<|python_tag|>{"name": "shell", "parameters": {"command": "ls"}}', ["llama3"], TOOLS)?.calls,
    ).toEqual([{ name: "shell", arguments: '{"command":"ls"}' }]);
    expect(readTextToolCalls('{"name": "shell", "parameters": {"command": "ls"}}', ["llama3"], TOOLS)?.calls).toEqual([
      { name: "shell", arguments: '{"command":"ls"}' },
    ]);
    expect(readTextToolCalls('{"name": "Ada", "parameters": {}}', ["llama3"], TOOLS)).toBeUndefined();
    expect(readTextToolCalls('{"name": "shell", "parameters": {}} and more words', ["llama3"], TOOLS)).toBeUndefined();
  });

  test("a form not asked for is not read; auto reads the one whose marker comes first", () => {
    const hermes = '<tool_call>{"name":"shell","arguments":{}}</tool_call>';
    expect(readTextToolCalls(hermes, ["mistral"], TOOLS)).toBeUndefined();
    expect(readTextToolCalls(hermes, [], TOOLS)).toBeUndefined();
    expect(readTextToolCalls(`note [TOOL_CALLS] later ${hermes}`, ALL, TOOLS)?.form).toBe("hermes");
  });

  test("a strings' brackets and escaped quotes do not end the JSON early", () => {
    expect(
      readTextToolCalls('[TOOL_CALLS]shell[ARGS]{"command": "echo \\"}]\\" {"}', ["mistral"], TOOLS)?.calls,
    ).toEqual([{ name: "shell", arguments: '{"command":"echo \\"}]\\" {"}' }]);
  });

  test("what looks like a call, read or not", () => {
    expect(lookalikeForm("use <tool_call> tags", TOOLS)).toBe("hermes");
    expect(lookalikeForm('{"name":"shell","arguments":{}}', TOOLS)).toBe("llama3");
    expect(lookalikeForm("plain prose", TOOLS)).toBeUndefined();
  });
});

describe("holding back streamed text that may be a call", () => {
  test("text before a marker streams; a marker split across deltas is held until it is clear", () => {
    const scanner = new TextCallScanner(["<tool_call>"], false);
    expect(scanner.push("Hello <to")).toBe("Hello ");
    expect(scanner.push("ol_ca")).toBe("");
    expect(scanner.push('ll>{"name"')).toBe("");
    expect(scanner.heldText()).toBe('<tool_call>{"name"');
    const other = new TextCallScanner(["<tool_call>"], false);
    expect(other.push("a <to")).toBe("a ");
    expect(other.push("p> b")).toBe("<top> b");
    expect(other.push(" <")).toBe(" ");
    expect(other.flushPending()).toBe("<");
  });

  test("bare JSON: an answer starting with { is held, prose is not", () => {
    const json = new TextCallScanner([], true);
    expect(json.push("  ")).toBe("");
    expect(json.push('{"na')).toBe("");
    expect(json.heldText()).toBe('  {"na');
    const prose = new TextCallScanner([], true);
    expect(prose.push("Sure {")).toBe("Sure {");
  });
});

function context(setting: TextToolCallSetting, tools = ["shell"]): TextCallContext {
  return {
    setting,
    toolNames: new Set(tools),
    settingKey: "providers.local.models.puppet.tool_calls_in_text",
    modelRef: "local/puppet",
  };
}

function run(deltas: string[], ctx: TextCallContext | undefined, finish = "stop"): StreamEvent[] {
  const mapper = createOpenAIChatStreamMapper(ctx);
  const events: StreamEvent[] = [];
  for (const content of deltas)
    events.push(...mapper.push({ data: JSON.stringify({ choices: [{ delta: { content } }] }) }));
  events.push(...mapper.push({ data: JSON.stringify({ choices: [{ delta: {}, finish_reason: finish }] }) }));
  events.push(...mapper.push({ data: "[DONE]" }));
  return events;
}

const PUPPET = ["<tool_call>", '\n{"name": "shell", ', '"arguments": {"command": "echo puppet-ok"}}', "\n</tool_call>"];

describe("Chat Completions with tool_calls_in_text", () => {
  test("a call written as text becomes a call of the answer: tool_use, no text shown", () => {
    const events = run(PUPPET, context("hermes"));
    expect(events.filter((e) => e.type === "text_delta")).toEqual([]);
    const done = events.find((e) => e.type === "done");
    expect(done).toMatchObject({
      response: {
        stopReason: "tool_use",
        message: {
          blocks: [{ type: "tool_call", toolCallName: "shell", toolCallArguments: { command: "echo puppet-ok" } }],
        },
      },
    });
    expect(events.some((e) => e.type === "notice")).toBe(false);
  });

  test("off: the text stays the answer and a notice names the setting to turn on", () => {
    const events = run(PUPPET, context("off"));
    expect(
      events
        .filter((e) => e.type === "text_delta")
        .map((e) => (e as { text: string }).text)
        .join(""),
    ).toBe(PUPPET.join(""));
    expect(events.find((e) => e.type === "notice")).toEqual({
      type: "notice",
      message:
        "local/puppet wrote what looks like a tool call as text (<tool_call>); nothing was run. Set providers.local.models.puppet.tool_calls_in_text: hermes in config.yaml to run such calls, or give the server a chat template that maps the model's calls (llama-server --chat-template-file, vllm --tool-call-parser)",
    });
    expect(events.find((e) => e.type === "done")).toMatchObject({ response: { stopReason: "end_turn" } });
  });

  test("without tools in the request nothing is read and nothing is said", () => {
    const events = run(PUPPET, context("auto", []));
    expect(events.some((e) => e.type === "notice")).toBe(false);
    expect(events.find((e) => e.type === "done")).toMatchObject({
      response: { stopReason: "end_turn", message: { blocks: [{ type: "text", text: PUPPET.join("") }] } },
    });
  });

  test("a broken call is kept as text with a notice; plain prose streams untouched", () => {
    const broken = run(["<tool_call>", '{"name": "shell", "arguments": {"comm'], context("auto"));
    expect(
      broken
        .filter((e) => e.type === "text_delta")
        .map((e) => (e as { text: string }).text)
        .join(""),
    ).toBe('<tool_call>{"name": "shell", "arguments": {"comm');
    expect((broken.find((e) => e.type === "notice") as { message: string }).message).toContain(
      "could not be read as one",
    );
    const prose = run(["Hello", " from", " the puppet."], context("auto"));
    expect(prose.filter((e) => e.type === "text_delta")).toHaveLength(3);
  });

  test("cut at the output limit: max_tokens even when a text call was read (issue 30)", () => {
    expect(run(PUPPET, context("hermes"), "length").find((e) => e.type === "done")).toMatchObject({
      response: { stopReason: "max_tokens" },
    });
  });
});
