import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join, resolve } from "node:path";
import { Instance } from "../support/instance.ts";

/** The examples of docs/tools.md, by the tool name in their first line. */
function docExamples(): Map<string, string> {
  const doc = readFileSync(resolve(import.meta.dir, "../../docs/tools.md"), "utf8");
  const out = new Map<string, string>();
  for (const match of doc.matchAll(/```js\n(\/\/ ~\/\.rienda\/tools\/([\w-]+)\/index\.js\n[\s\S]*?)```/g))
    out.set(match[2]!, match[1]!);
  return out;
}

const examples = docExamples();
let inst: Instance;
let server: Server;
let base = "";
beforeAll(async () => {
  server = createServer((_req, res) => {
    res.setHeader("Content-Type", "text/plain");
    res.statusCode = 418;
    res.end("teapot");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => server.close());
beforeEach(() => {
  inst = new Instance();
  for (const [name, source] of examples) inst.tool(name, source);
});
afterEach(() => inst.dispose());

describe("the examples of docs/tools.md", () => {
  test("the docs hold the examples the tests run", () => {
    expect([...examples.keys()].sort()).toEqual([
      "cached-get",
      "count-lines",
      "http-status",
      "json-field",
      "remember",
      "save-note",
      "word-count",
    ]);
  });

  test("word-count counts the words of a workspace file", async () => {
    inst.file("notes.txt", "one two  three\nfour\n");
    const r = await inst.run(["tool", "run", "word-count", "--args", '{"path":"notes.txt"}']);
    expect(r).toMatchObject({ code: 0, stdout: "4\n" });
  });

  test("json-field returns a field, or an error result with exit 1", async () => {
    inst.file("pkg.json", '{"name":"demo","tags":["a"]}');
    expect(await inst.run(["tool", "run", "json-field", "--args", '{"path":"pkg.json","field":"tags"}'])).toMatchObject(
      { code: 0, stdout: '["a"]\n' },
    );
    expect(await inst.run(["tool", "run", "json-field", "--args", '{"path":"pkg.json","field":"x"}'])).toMatchObject({
      code: 1,
      stdout: "no field x\n",
    });
  });

  test("save-note asks before overwriting: no without a terminal, yes with -y", async () => {
    inst.file("notes/a.txt", "old");
    const refused = await inst.run(["tool", "run", "save-note", "--args", '{"name":"a","text":"new"}']);
    expect(refused).toMatchObject({ code: 1, stdout: "kept the existing notes/a.txt\n" });
    expect(readFileSync(join(inst.workspace, "notes/a.txt"), "utf8")).toBe("old");
    const approved = await inst.run(["tool", "run", "save-note", "-y", "--args", '{"name":"a","text":"new"}']);
    expect(approved).toMatchObject({ code: 0, stdout: "saved notes/a.txt\n" });
    expect(readFileSync(join(inst.workspace, "notes/a.txt"), "utf8")).toBe("new");
  });

  test("count-lines runs a command in the workdir given with -C", async () => {
    inst.file("sub/a.txt", "1\n2\n");
    inst.file("sub/b.txt", "3\n");
    const r = await inst.run([
      "tool",
      "run",
      "count-lines",
      "-C",
      join(inst.workspace, "sub"),
      "--args",
      '{"pattern":"*.txt"}',
    ]);
    expect(r).toMatchObject({ code: 0, stdout: "3\n" });
  });

  test("http-status reads any status", async () => {
    const r = await inst.run(["tool", "run", "http-status", "--args", JSON.stringify({ url: `${base}/x` })]);
    expect(r).toMatchObject({ code: 0, stdout: "418 text/plain\n" });
  });
});

describe("rienda tool run", () => {
  test("prints only the result on stdout while ctx.log and command output go to stderr", async () => {
    inst.tool(
      "chatty",
      `module.exports = { description: "d", parameters: { type: "object" }, execute(ctx) { ctx.log("working"); console.log("via console"); ctx.system.exec("echo from-child"); return "result"; } };`,
    );
    const r = await inst.run(["tool", "run", "chatty"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("result\n");
    expect(r.stderr).toContain("working\n");
    expect(r.stderr).toContain("via console\n");
    expect(r.stderr).toContain("from-child\n");
  });

  test("arguments that do not match the schema are an error result and execute does not run", async () => {
    inst.file("notes.txt", "a b");
    const r = await inst.run(["tool", "run", "word-count", "--args", '{"path":3}']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('invalid arguments for tool "word-count":\n- path: must be string\n');
  });

  test("a value that is not a string or { text } is an error naming it; a throw carries its message", async () => {
    inst.tool(
      "number",
      `module.exports = { description: "d", parameters: { type: "object" }, execute() { return 42; } };`,
    );
    inst.tool(
      "thrower",
      `module.exports = { description: "d", parameters: { type: "object" }, execute() { throw new Error("it broke"); } };`,
    );
    expect(await inst.run(["tool", "run", "number"])).toMatchObject({
      code: 1,
      stdout: "execute returned a number; it must return a string or { text: string, isError?: boolean }\n",
    });
    expect(await inst.run(["tool", "run", "thrower"])).toMatchObject({ code: 1, stdout: "it broke\n" });
  });

  test("invalid JSON and unknown tools are refused with a message and exit 1", async () => {
    const bad = await inst.run(["tool", "run", "word-count", "--args", "{nope"]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toStartWith("rienda: tool run: --args is not valid JSON");
    const unknown = await inst.run(["tool", "run", "ghost"]);
    expect(unknown).toMatchObject({ code: 1, stdout: "" });
    expect(unknown.stderr).toContain(
      'rienda: unknown tool "ghost" (available: cached-get, count-lines, http-status, json-field, remember, save-note, shell, word-count)',
    );
  });

  test("a broken tool is named with its problem", async () => {
    inst.tool("broken", "module.exports = {");
    const r = await inst.run(["tool", "run", "broken"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('rienda: tool "broken": cannot load index.js: SyntaxError');
  });

  test("the built-in shell runs, and a user tool named shell replaces it", async () => {
    const builtIn = await inst.run(["tool", "run", "shell", "--args", '{"command":"echo hi; exit 3"}']);
    expect(builtIn).toMatchObject({ code: 1, stdout: "hi\ncommand exited with code 3\n" });
    inst.tool(
      "shell",
      `module.exports = { description: "mine", parameters: { type: "object" }, execute() { return "my shell"; } };`,
    );
    const replaced = await inst.run(["tool", "run", "shell", "--args", '{"command":"echo hi"}']);
    expect(replaced).toMatchObject({ code: 0, stdout: "my shell\n" });
    expect(replaced.stderr).toContain('tool "shell" replaces a built-in tool');
  });

  test("a tool can require packages from its own node_modules", async () => {
    inst.tool(
      "padded",
      `module.exports = { description: "d", parameters: { type: "object" }, execute() { return require("tiny-pad")("x"); } };`,
    );
    inst.write(inst.riendaPath("tools", "padded", "node_modules", "tiny-pad", "package.json"), '{"name":"tiny-pad"}');
    inst.write(
      inst.riendaPath("tools", "padded", "node_modules", "tiny-pad", "index.js"),
      'module.exports = (s) => "[" + s + "]";',
    );
    expect(await inst.run(["tool", "run", "padded"])).toMatchObject({ code: 0, stdout: "[x]\n" });
  });

  test("a package whose package.json main is not index.js loads too, and the workspace's package.json has no say", async () => {
    inst.tool(
      "mained",
      `module.exports = { description: "d", parameters: { type: "object" }, execute() { return require("lib-main").hi(); } };`,
    );
    inst.write(
      inst.riendaPath("tools", "mained", "node_modules", "lib-main", "package.json"),
      '{"name":"lib-main","main":"dist/main.js"}',
    );
    inst.write(
      inst.riendaPath("tools", "mained", "node_modules", "lib-main", "dist", "main.js"),
      'module.exports = { hi: () => "hello from dist" };',
    );
    inst.file("package.json", '{"name":"workspace","type":"module","main":"nowhere.js"}');
    expect(await inst.run(["tool", "run", "mained"])).toMatchObject({ code: 0, stdout: "hello from dist\n" });
  });

  test("ctx.config is the config file's document", async () => {
    inst.config(
      "providers:\n  local:\n    protocol: openai_chat_completions\n    base_url: http://127.0.0.1:9/v1\n    models: {}\nconfig:\n  conf-reader: { level: 7 }\n",
    );
    inst.tool(
      "conf-reader",
      `module.exports = { description: "d", parameters: { type: "object" }, execute(ctx) { return String(ctx.config.config["conf-reader"].level); } };`,
    );
    expect(await inst.run(["tool", "run", "conf-reader"])).toMatchObject({ code: 0, stdout: "7\n" });
  });
});

describe("rienda tool list", () => {
  test("lists every tool with description and source, built-ins marked, problems on stderr", async () => {
    inst.tool("broken", "module.exports = 1;");
    const r = await inst.run(["tool", "list"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("shell (built-in)\n");
    expect(r.stdout).toContain(
      `word-count\n    Counts the words of a file in the workspace.\n    source: ${inst.riendaPath("tools", "word-count", "index.js")}\n`,
    );
    expect(r.stdout).not.toContain("broken");
    expect(r.stderr).toContain('tool "broken": module.exports must be an object');
  });
});
