/**
 * Data out (docs/pipelines.md): `--schema` makes the final answer a JSON
 * document that matches a JSON Schema, asked for natively or as a final
 * tool, checked with ajv, repaired once, printed alone on stdout.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { jsonEvents, scenario, systemOf, toolNamesOf, toolResultsOf, type Scenario } from "../support/scenario.ts";
import { messageEntries, sessionFile, sessionFiles, sessionIdFrom } from "../support/session-reader.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

const SCHEMA = {
  type: "object",
  properties: { name: { type: "string" }, count: { type: "integer" } },
  required: ["name", "count"],
  additionalProperties: false,
};
const SCHEMA_ARG = JSON.stringify(SCHEMA);

type Body = Record<string, unknown>;
const bodyOf = (index = 0): Body => s!.server.requests[index]!.body as Body;

const INSTRUCTION_TOOL =
  "When you have the final answer, call the `final_answer` tool with it as its arguments; that ends the task. Do not write the answer as text.";

describe("--schema as a final tool (Chat Completions servers, Anthropic)", () => {
  test("the answer tool carries the schema, a tool call is required, stdout is exactly the document", async () => {
    s = await scenario();
    s.server.script({ toolCalls: [{ name: "final_answer", arguments: { name: "x", count: 3 } }] });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "count", "--schema", SCHEMA_ARG]);
    expect(r.stderr).not.toContain("rienda:");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{"name":"x","count":3}\n');
    const body = bodyOf();
    expect(body.tools).toEqual([
      {
        type: "function",
        function: {
          name: "final_answer",
          description:
            "Gives the final answer of the task. Call it once, when you are done, with the answer as its arguments; it ends the task.",
          parameters: SCHEMA,
        },
      },
    ]);
    expect(body.tool_choice).toBe("required");
    expect(body.response_format).toBeUndefined();
    expect(systemOf(s.server.requests[0]!)).toBe(`You are a test agent.\n\n${INSTRUCTION_TOOL}`);
    // The call has its result in the session, so -s continues from a well-formed history.
    const entries = messageEntries(sessionFile(s.inst.home, sessionIdFrom(r.stderr)));
    expect(JSON.stringify(entries.at(-1))).toContain(
      '"toolResult":[{"type":"text","text":"The answer was accepted."}]',
    );
  });

  test("Anthropic: tool_choice any", async () => {
    s = await scenario({ protocol: "anthropic" });
    s.server.script({ toolCalls: [{ name: "final_answer", arguments: { name: "x", count: 1 } }] });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "count", "--schema", SCHEMA_ARG]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{"name":"x","count":1}\n');
    expect(bodyOf().tool_choice).toEqual({ type: "any" });
    expect(toolNamesOf(s.server.requests[0]!)).toEqual(["final_answer"]);
  });

  test("the agent's tools still work before the final answer", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.server.script(
      { text: "Let me look.", toolCalls: [{ name: "shell", arguments: { command: "echo 7" } }] },
      { toolCalls: [{ name: "final_answer", arguments: { name: "echo", count: 7 } }] },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "count", "--schema", SCHEMA_ARG]);
    expect(r.code).toBe(0);
    // Only the document reaches stdout, not the model's words along the way.
    expect(r.stdout).toBe('{"name":"echo","count":7}\n');
    expect(toolNamesOf(s.server.requests[0]!)).toEqual(["shell", "final_answer"]);
    expect(toolResultsOf(s.server.requests[1]!)).toEqual(["7"]);
  });

  test("an answer that misses gets one repair turn quoting the problems", async () => {
    s = await scenario();
    s.server.script(
      { toolCalls: [{ name: "final_answer", arguments: { name: 5, count: 1 } }] },
      { toolCalls: [{ name: "final_answer", arguments: { name: "five", count: 1 } }] },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "count", "--schema", SCHEMA_ARG]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{"name":"five","count":1}\n');
    expect(toolResultsOf(s.server.requests[1]!)).toEqual([
      "The answer does not match the required JSON Schema:\n- /name: must be string\nCall final_answer again with the corrected answer.",
    ]);
    expect(r.stderr).toContain(
      "tool failed: The answer does not match the required JSON Schema:\n- /name: must be string",
    );
  });

  test("still invalid after the repair: exit 4, the first problem named, nothing on stdout", async () => {
    s = await scenario();
    s.server.script(
      { toolCalls: [{ name: "final_answer", arguments: { name: "x" } }] },
      { toolCalls: [{ name: "final_answer", arguments: { name: "x", count: "many" } }] },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "count", "--schema", SCHEMA_ARG]);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("rienda: the answer does not match the schema: /count: must be integer");
    expect(s.server.requests).toHaveLength(2);
  });

  test("an answer written as text instead of the call is taken when it is the document", async () => {
    s = await scenario();
    s.server.script({ text: '```json\n{"name":"t","count":2}\n```' });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "count", "--schema", SCHEMA_ARG]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{"name":"t","count":2}\n');
  });

  test("a schema whose root is not an object is asked as { answer } and printed unwrapped", async () => {
    s = await scenario();
    const list = { type: "array", items: { $ref: "#/$defs/word" }, $defs: { word: { type: "string" } } };
    s.server.script({ toolCalls: [{ name: "final_answer", arguments: { answer: ["a", "b"] } }] });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "list", "--schema", JSON.stringify(list)]);
    expect(r.stderr).not.toContain("rienda:");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('["a","b"]\n');
    const tool = (bodyOf().tools as { function: { parameters: unknown } }[])[0]!;
    expect(tool.function.parameters).toEqual({
      type: "object",
      properties: { answer: { type: "array", items: { $ref: "#/$defs/word" } } },
      required: ["answer"],
      additionalProperties: false,
      $defs: { word: { type: "string" } },
    });
  });
});

describe("--schema natively", () => {
  test("Responses: text.format json_schema, strict when the schema allows it", async () => {
    s = await scenario({ protocol: "openai_responses" });
    s.server.script({ text: '{"name":"r","count":4}' });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "count", "--schema", SCHEMA_ARG]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{"name":"r","count":4}\n');
    const body = bodyOf();
    expect(body.text).toEqual({ format: { type: "json_schema", name: "answer", schema: SCHEMA, strict: true } });
    expect(body.tools).toBeUndefined();
    expect(body.tool_choice).toBeUndefined();
  });

  test("Chat Completions with structured_output: native: response_format, strict false for an open schema", async () => {
    s = await scenario({ modelExtra: "        structured_output: native" });
    const open = { type: "object", properties: { name: { type: "string" } } };
    s.server.script({ text: '{"name":"n"}' });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "name", "--schema", JSON.stringify(open)]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{"name":"n"}\n');
    expect(bodyOf().response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "answer", schema: open, strict: false },
    });
  });

  test("a text that is not JSON gets one repair turn, then the run fails naming it", async () => {
    s = await scenario({ protocol: "openai_responses" });
    s.server.script({ text: "Sure! The name is r." }, { text: "still prose" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "count", "--schema", SCHEMA_ARG, "--json"]);
    expect(r.code).toBe(4);
    const events = jsonEvents(r.stdout);
    const end = events.at(-1)!;
    expect(end.type).toBe("run_end");
    expect(end.reason).toBe("invalid_output");
    expect(String(end.message)).toStartWith("the answer does not match the schema: it is not a JSON document (");
    const second = JSON.stringify(bodyOf(1).input);
    expect(second).toContain("Your answer is not a JSON document (");
    expect(second).toContain("Answer again with only the JSON document, nothing before or after it.");
  });

  test("--json puts the document in run_end as output", async () => {
    s = await scenario({ protocol: "openai_responses" });
    s.server.script({ text: '{"name":"j","count":9}' });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "count", "--schema", SCHEMA_ARG, "--json"]);
    expect(r.code).toBe(0);
    const end = jsonEvents(r.stdout).at(-1)!;
    expect(end).toMatchObject({ type: "run_end", reason: "end_turn", output: { name: "j", count: 9 } });
  });
});

describe("--schema is checked before anything is sent", () => {
  test("a schema file is read relative to the current directory", async () => {
    s = await scenario({ protocol: "openai_responses" });
    s.inst.file("schemas/count.json", SCHEMA_ARG);
    s.server.script({ text: '{"name":"f","count":0}' });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "count", "--schema", "schemas/count.json"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{"name":"f","count":0}\n');
  });

  for (const [what, value, message] of [
    [
      "a missing file",
      "nope.json",
      'rienda: --schema nope.json: no such file (give a file, or the schema itself as JSON starting with "{")',
    ],
    ["text that is not JSON", "{not json", "rienda: --schema: is not JSON: "],
    ["an invalid schema", '{"type":"objekt"}', "rienda: --schema: is not a usable JSON Schema: "],
    ["a reference that resolves nowhere", '{"$ref":"#/$defs/none"}', "rienda: --schema: is not a usable JSON Schema: "],
  ] as const) {
    test(`${what} fails before any request or session`, async () => {
      s = await scenario();
      const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--schema", value]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(message);
      expect(s.server.requests).toHaveLength(0);
      expect(sessionFiles(s.inst.home)).toHaveLength(0);
    });
  }
});
