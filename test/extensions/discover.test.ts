import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { discoverHooks, discoverTools } from "../../src/extensions/index.ts";
import { createRuntime, type Runtime } from "../../src/runtime/index.ts";
import { createToolRunner, type ToolCallContext } from "../../src/tools/index.ts";

let runtime: Runtime;
let dir: string;
const runner = createToolRunner();
beforeAll(() => (runtime = createRuntime()));
afterAll(() => runtime.close());
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "rienda-ext-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function put(relative: string, source: string): string {
  const path = join(dir, relative);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, source);
  return path;
}

const GOOD = `module.exports = { description: "Says hi.", parameters: { type: "object", properties: {} }, execute(ctx, args) { return "hi " + (args.who || "you"); } };`;

function context(): ToolCallContext {
  const workdir = dir;
  return {
    data: {
      workdir,
      riendaDir: join(dir, ".rienda"),
      session: { id: "s", agentId: "a", modelId: "m", workdir },
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
    frontEnd: { log: () => {}, output: () => {}, notify: () => {}, confirm: async () => false },
    signal: new AbortController().signal,
  };
}

describe("discoverTools", () => {
  test("loads valid tools, merges the built-ins and runs a user tool in a fresh context", async () => {
    const file = put("tools/greet/index.js", GOOD);
    const catalog = await discoverTools({ riendaDir: dir, runtime, runner });
    expect(catalog.diagnostics).toEqual([]);
    expect(catalog.tools.map((t) => [t.name, t.builtIn, t.source])).toEqual([
      ["greet", false, file],
      ["shell", true, "built-in"],
    ]);
    const greet = catalog.tools[0]!;
    expect(greet.description).toBe("Says hi.");
    expect(await runner.runTool(greet, { who: "Ana" }, context())).toEqual({ text: "hi Ana", isError: false });
  });

  test("skips hidden directories and directories without index.js silently", async () => {
    put("tools/.hidden/index.js", GOOD);
    put("tools/empty/readme.md", "nothing");
    put("tools/loose.js", GOOD);
    const catalog = await discoverTools({ riendaDir: dir, runtime, runner });
    expect(catalog.tools.map((t) => t.name)).toEqual(["shell"]);
    expect(catalog.diagnostics).toEqual([]);
  });

  test("reports each broken tool and still loads the others", async () => {
    put("tools/good/index.js", GOOD);
    put("tools/nodesc/index.js", `module.exports = { parameters: { type: "object" }, execute() {} };`);
    put(
      "tools/badschema/index.js",
      `module.exports = { description: "d", parameters: { type: "strng" }, execute() {} };`,
    );
    put("tools/noexec/index.js", `module.exports = { description: "d", parameters: { type: "object" }, execute: 3 };`);
    put("tools/syntax/index.js", `module.exports = { description: "d",, };`);
    put("tools/throws/index.js", `throw new Error("broken at load");`);
    put("tools/notobject/index.js", `module.exports = 42;`);
    put("tools/bad name/index.js", GOOD);
    const catalog = await discoverTools({ riendaDir: dir, runtime, runner });
    expect(catalog.tools.map((t) => t.name)).toEqual(["good", "shell"]);
    const messages = catalog.diagnostics.map((d) => d.message);
    expect(messages).toContain('tool "nodesc": missing "description" (a non-empty string)');
    expect(
      messages.find((m) => m.startsWith('tool "badschema": "parameters" is not a valid JSON Schema')),
    ).toBeDefined();
    expect(messages).toContain('tool "noexec": "execute" must be a function (it is a number)');
    expect(messages.find((m) => m.startsWith('tool "syntax": cannot load index.js: SyntaxError'))).toBeDefined();
    expect(messages).toContain('tool "throws": cannot load index.js: broken at load');
    expect(messages).toContain(
      'tool "notobject": module.exports must be an object with description, parameters and execute (it is a number)',
    );
    expect(messages.find((m) => m.startsWith('tool "bad name": invalid name'))).toBeDefined();
    expect(catalog.diagnostics.find((d) => d.name === "nodesc")?.file).toBe(join(dir, "tools/nodesc/index.js"));
  });

  test("a user tool named like a built-in replaces it, with a diagnostic", async () => {
    put("tools/shell/index.js", GOOD);
    const catalog = await discoverTools({ riendaDir: dir, runtime, runner });
    expect(catalog.tools.map((t) => [t.name, t.builtIn])).toEqual([["shell", false]]);
    expect(catalog.diagnostics.map((d) => d.message)).toEqual(['tool "shell" replaces a built-in tool']);
  });

  test("with names, loads only the modules asked for but lists every available name", async () => {
    put("tools/wanted/index.js", GOOD);
    put("tools/broken/index.js", `throw new Error("would be reported if loaded");`);
    const catalog = await discoverTools({ riendaDir: dir, runtime, runner, names: ["wanted"] });
    expect(catalog.tools.map((t) => t.name)).toEqual(["shell", "wanted"]);
    expect(catalog.diagnostics).toEqual([]);
    expect(catalog.available).toEqual(["broken", "shell", "wanted"]);
  });

  test("a missing tools directory means only the built-ins", async () => {
    const catalog = await discoverTools({ riendaDir: join(dir, "nowhere"), runtime, runner });
    expect(catalog.tools.map((t) => t.name)).toEqual(["shell"]);
  });
});

describe("discoverHooks and Hook.call", () => {
  test("keeps objects of functions for known points and calls one point with payload and result", async () => {
    put(
      "hooks/audit/index.js",
      `module.exports = { afterToolExecute(ctx, call, result) { return { text: call.name + ":" + result.text }; }, afterRun() {} };`,
    );
    const catalog = await discoverHooks({ riendaDir: dir, runtime });
    expect(catalog.diagnostics).toEqual([]);
    const hook = catalog.hooks[0]!;
    expect(hook.points).toEqual(["afterToolExecute", "afterRun"]);
    expect(
      await hook.call(
        "afterToolExecute",
        [
          { id: "1", name: "shell", arguments: {} },
          { text: "ok", isError: false },
        ],
        context(),
      ),
    ).toEqual({
      kind: "returned",
      value: { text: "shell:ok" },
      type: "an object",
    });
    expect(await hook.call("afterRun", [{ reason: "end_turn" }], context())).toEqual({
      kind: "returned",
      value: undefined,
      type: "undefined",
    });
  });

  test("a throwing handler is a failure value with its message", async () => {
    put("hooks/bad/index.js", `module.exports = { beforeRun() { throw new Error("nope"); } };`);
    const { hooks } = await discoverHooks({ riendaDir: dir, runtime });
    expect(await hooks[0]!.call("beforeRun", [{}], context())).toEqual({ kind: "failed", message: "nope" });
  });

  test("reports unknown point names, non-functions and non-objects", async () => {
    put("hooks/typo/index.js", `module.exports = { beforeTool() {} };`);
    put("hooks/notfn/index.js", `module.exports = { beforeRun: "x" };`);
    put("hooks/fn/index.js", `module.exports = function () {};`);
    const catalog = await discoverHooks({ riendaDir: dir, runtime });
    expect(catalog.hooks).toEqual([]);
    const messages = catalog.diagnostics.map((d) => d.message);
    expect(messages.find((m) => m.startsWith('hook "typo": unknown point "beforeTool"'))).toBeDefined();
    expect(messages).toContain('hook "notfn": "beforeRun" must be a function (it is a string)');
    expect(messages).toContain(
      'hook "fn": module.exports must be an object of functions named after hook points (it is a function)',
    );
  });
});
