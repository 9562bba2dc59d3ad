import { describe, expect, test } from "bun:test";
import {
  capText,
  createShellTool,
  createToolRunner,
  resultFromValue,
  type Tool,
  type ToolCallContext,
} from "../../src/tools/index.ts";
import { runProcess } from "../../src/runtime/index.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { processRunning } from "../support/processes.ts";

function context(signal = new AbortController().signal): ToolCallContext & { out: string[] } {
  const out: string[] = [];
  return {
    out,
    data: {
      workdir: tmpdir(),
      // No test here uses ctx.cache or ctx.store: nothing is written there.
      riendaDir: join(tmpdir(), "rienda-unused-home", ".rienda"),
      session: { id: "s", agentId: "a", modelId: "m", workdir: tmpdir() },
      agent: {
        name: "a",
        description: "",
        model: "m",
        tools: [],
        hooks: [],
        skills: [],
        agents: [],
        config: {},
        systemPrompt: "",
      },
      config: {},
    },
    frontEnd: { log: () => {}, output: (_s, t) => out.push(t), notify: () => {}, confirm: async () => false },
    signal,
  };
}

function fakeTool(
  execute: Tool["execute"],
  parameters: Record<string, unknown> = { type: "object" },
): Tool & { calls: number } {
  const tool = {
    name: "fake",
    description: "d",
    parameters,
    source: "built-in",
    builtIn: true,
    calls: 0,
    execute: async (args: Record<string, unknown>, ctx: ToolCallContext) => {
      tool.calls++;
      return execute(args, ctx);
    },
  };
  return tool;
}

describe("capText", () => {
  test("leaves text within 256 KiB alone", () => {
    const text = "a".repeat(256 * 1024);
    expect(capText(text)).toBe(text);
  });

  test("cuts on a character boundary and marks the cut", () => {
    const text = "€".repeat(100_000); // 3 bytes each: 300,000 bytes
    const capped = capText(text);
    expect(capped.endsWith("\n[output truncated]")).toBe(true);
    const kept = capped.slice(0, -"\n[output truncated]".length);
    expect(kept).toBe("€".repeat(Math.floor((256 * 1024 - "\n[output truncated]".length) / 3)));
    expect(new TextEncoder().encode(capped).length).toBeLessThanOrEqual(256 * 1024);
  });
});

describe("resultFromValue", () => {
  test("a string is a successful result", () => {
    expect(resultFromValue("hi", "a string")).toEqual({ text: "hi", isError: false });
  });

  test("{ text, isError } is taken as it is", () => {
    expect(resultFromValue({ text: "bad", isError: true }, "an object")).toEqual({ text: "bad", isError: true });
    expect(resultFromValue({ text: "ok" }, "an object")).toEqual({ text: "ok", isError: false });
    expect(resultFromValue({ text: "ok", isError: null }, "an object")).toEqual({ text: "ok", isError: false });
  });

  test("anything else is an error result naming what was returned", () => {
    for (const [value, type, named] of [
      [42, "a number", "a number"],
      [true, "a boolean", "a boolean"],
      [[1], "an array", "an array"],
      [null, "null", "null"],
      [undefined, "undefined", "undefined"],
      [{ nope: 1 }, "an object", "an object without a text string"],
      [{ text: "x", isError: "yes" }, "an object", "an object whose isError is a string instead of a boolean"],
    ] as const) {
      const r = resultFromValue(value, type);
      expect(r.isError).toBe(true);
      expect(r.text).toBe(`execute returned ${named}; it must return a string or { text: string, isError?: boolean }`);
    }
  });
});

describe("runTool", () => {
  const runner = createToolRunner();
  const schema = {
    type: "object",
    properties: { path: { type: "string" }, n: { type: "integer" } },
    required: ["path"],
    additionalProperties: false,
  };

  test("arguments that are not a JSON object are refused without running the tool", async () => {
    const tool = fakeTool(async () => ({ text: "ran", isError: false }));
    expect(await runner.runTool(tool, [1, 2], context())).toEqual({
      text: 'invalid arguments for tool "fake": expected a JSON object, got an array',
      isError: true,
    });
    const bad = await runner.runTool(tool, "{oops", context());
    expect(bad.isError).toBe(true);
    expect(bad.text).toStartWith('invalid arguments for tool "fake": not valid JSON');
    expect(tool.calls).toBe(0);
  });

  test("JSON text in a string (arguments encoded twice) is refused, never decoded: hooks saw a string", async () => {
    const tool = fakeTool(async () => ({ text: "ran", isError: false }), schema);
    const r = await runner.runTool(tool, '{"path":"a"}', context());
    expect(r).toEqual({
      text: 'invalid arguments for tool "fake": expected a JSON object, got a string holding JSON (the arguments were encoded twice; send the object itself)',
      isError: true,
    });
    expect(tool.calls).toBe(0);
  });

  test("a schema mismatch lists each problem and execute is not called", async () => {
    const tool = fakeTool(async () => ({ text: "ran", isError: false }), schema);
    const r = await runner.runTool(tool, { n: "x", extra: 1 }, context());
    expect(r).toEqual({
      text: 'invalid arguments for tool "fake":\n- missing required property "path"\n- unexpected property "extra"\n- n: must be integer',
      isError: true,
    });
    expect(tool.calls).toBe(0);
  });

  test("matching arguments reach execute, and the text is capped", async () => {
    const tool = fakeTool(async (args) => ({ text: String(args.path).repeat(300 * 1024), isError: false }), schema);
    const r = await runner.runTool(tool, { path: "a" }, context());
    expect(r.text.endsWith("\n[output truncated]")).toBe(true);
    expect(r.text.length).toBe(256 * 1024);
    expect((await runner.runTool(tool, { path: "" }, context())).text).toBe("");
  });

  test("a tool that throws becomes an error result with the message", async () => {
    const tool = fakeTool(async () => {
      throw new Error("exploded");
    });
    expect(await runner.runTool(tool, {}, context())).toEqual({ text: "exploded", isError: true });
  });

  test("schemaProblem accepts JSON Schemas and names what is wrong with others", async () => {
    expect(await runner.schemaProblem(schema)).toBeUndefined();
    expect(await runner.schemaProblem({ type: "strng" })).toContain("parameters/type");
    expect(await runner.schemaProblem([1])).toBe("must be a JSON Schema object");
  });
});

describe("the built-in shell tool", () => {
  const shell = createShellTool(runProcess);
  const runner = createToolRunner();

  test("has the parameters of contract.md §5", () => {
    expect(shell.name).toBe("shell");
    expect(shell.builtIn).toBe(true);
    expect(shell.parameters).toMatchObject({
      type: "object",
      properties: { command: { type: "string" }, workdir: { type: "string" }, timeout_ms: { type: "integer" } },
      required: ["command"],
    });
  });

  test("returns stdout, then stderr, then the exit code, streaming output live", async () => {
    const ctx = context();
    const r = await runner.runTool(shell, { command: "echo out; echo err >&2; exit 4" }, ctx);
    expect(r).toEqual({ text: "out\nstderr:\nerr\ncommand exited with code 4", isError: true });
    expect(ctx.out.join("")).toContain("out\n");
  });

  test("a quiet successful command says (no output)", async () => {
    expect(await runner.runTool(shell, { command: "true" }, context())).toEqual({
      text: "(no output)",
      isError: false,
    });
  });

  test("runs in workdir relative to the workspace", async () => {
    expect(await runner.runTool(shell, { command: "pwd", workdir: "." }, context())).toEqual({
      text: tmpdir(),
      isError: false,
    });
    const missing = await runner.runTool(shell, { command: "pwd", workdir: "no-such-dir-xyz" }, context());
    expect(missing.isError).toBe(true);
  });

  test("a timeout kills the command and says so", async () => {
    const r = await runner.runTool(shell, { command: "echo before; sleep 10", timeout_ms: 200 }, context());
    expect(r).toEqual({ text: "before\ncommand timed out after 200ms", isError: true });
  });

  test("output past 256 KiB keeps its head and its tail around a marker line, within the cap", async () => {
    const r = await runner.runTool(
      shell,
      { command: "printf START; head -c 400000 /dev/zero | tr '\\0' a; printf END" },
      context(),
    );
    expect(r.isError).toBe(false);
    expect(new TextEncoder().encode(r.text).length).toBeLessThanOrEqual(256 * 1024);
    expect(r.text.startsWith("STARTaaa")).toBe(true);
    expect(r.text.endsWith("aaaEND")).toBe(true);
    expect(r.text.split("\n")).toEqual([
      expect.stringMatching(/^STARTa+$/),
      "[output truncated]",
      expect.stringMatching(/^a+END$/),
    ]);
  });

  test("a failing command with huge output still shows its stderr and its exit status", async () => {
    const command = "head -c 600000 /dev/zero | tr '\\0' o; echo; echo 'fatal: the real reason' >&2; exit 3";
    const r = await runner.runTool(shell, { command }, context());
    expect(r.isError).toBe(true);
    expect(new TextEncoder().encode(r.text).length).toBeLessThanOrEqual(256 * 1024);
    expect(r.text).toContain("\n[output truncated]\n");
    expect(r.text.endsWith("\nstderr:\nfatal: the real reason\ncommand exited with code 3")).toBe(true);
    // And with both streams huge, both keep a head and a tail.
    const both = await runner.runTool(
      shell,
      {
        command:
          "head -c 600000 /dev/zero | tr '\\0' o; head -c 600000 /dev/zero | tr '\\0' e >&2; echo LAST >&2; exit 2",
      },
      context(),
    );
    expect(new TextEncoder().encode(both.text).length).toBeLessThanOrEqual(256 * 1024);
    expect(both.text.match(/\[output truncated\]/g)).toHaveLength(2);
    expect(both.text).toMatch(
      /^o+\n\[output truncated\]\no+\nstderr:\ne+\n\[output truncated\]\ne+LAST\ncommand exited with code 2$/,
    );
  });

  test("what a command starts in the background ends with the call", async () => {
    const r = await runner.runTool(shell, { command: "sleep 60 & echo $!" }, context());
    const pid = Number(r.text.trim());
    let alive = true;
    for (let i = 0; i < 500 && alive; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      alive = processRunning(pid);
    }
    expect(alive).toBe(false);
  });
});
