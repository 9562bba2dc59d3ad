/**
 * `ctx.cache` and `ctx.store` through the binary (docs/tools.md "Remembering
 * between calls", go-current.md §7): a tool run by `rienda tool run` and a
 * hook of `rienda run` keep entries in ~/.rienda/cache/ and store/, and a
 * later process, a fresh context, reads what an earlier one wrote.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { resolve } from "node:path";
import { Instance } from "../support/instance.ts";
import { scenario, type Scenario } from "../support/scenario.ts";

/** The two examples of docs/tools.md this page is about, by name. */
function docExample(name: string): string {
  const doc = readFileSync(resolve(import.meta.dir, "../../docs/tools.md"), "utf8");
  const match = new RegExp("```js\\n(// ~/\\.rienda/tools/" + name + "/index\\.js\\n[\\s\\S]*?)```").exec(doc);
  if (!match) throw new Error(`docs/tools.md has no example ${name}`);
  return match[1]!;
}

let server: Server;
let base = "";
let hits = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    hits++;
    res.setHeader("Content-Type", "application/json");
    res.end(JSON.stringify({ answer: 42, hit: hits, path: req.url }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => server.close());

let inst: Instance | undefined;
let s: Scenario | undefined;
afterEach(async () => {
  inst?.dispose();
  inst = undefined;
  await s?.dispose();
  s = undefined;
});

const mode = (path: string) => statSync(path).mode & 0o777;

describe("ctx.store through rienda tool run", () => {
  test("the remember example keeps a text for the next invocation, in the Go envelope (0600)", async () => {
    inst = new Instance();
    inst.tool("remember", docExample("remember"));
    expect(await inst.run(["tool", "run", "remember"])).toMatchObject({ code: 0, stdout: "nothing remembered yet\n" });
    expect(
      await inst.run([
        "tool",
        "run",
        "remember",
        "--args",
        JSON.stringify({ text: "the deploy key is in vault\nline two" }),
      ]),
    ).toMatchObject({ code: 0, stdout: "remembered\n" });
    const file = inst.riendaPath("store", "remembered.json");
    expect(readFileSync(file, "utf8")).toBe(
      '{\n  "expires_at": "",\n  "payload": "the deploy key is in vault\\nline two"\n}\n',
    );
    expect(mode(file)).toBe(0o600);
    expect(mode(inst.riendaPath("store"))).toBe(0o700);
    // Another process, another context: only the file links them.
    expect(await inst.run(["tool", "run", "remember"])).toMatchObject({
      code: 0,
      stdout: "the deploy key is in vault\nline two\n",
    });
  });

  test("an entry the Go program wrote is read, and a refused name or a time to live fails the call and writes nothing", async () => {
    inst = new Instance();
    mkdirSync(inst.riendaPath("store"), { recursive: true });
    writeFileSync(inst.riendaPath("store", "remembered.json"), '{"expires_at":"","payload":"written by Go"}');
    inst.tool("remember", docExample("remember"));
    expect(await inst.run(["tool", "run", "remember"])).toMatchObject({ code: 0, stdout: "written by Go\n" });
    inst.tool(
      "bad",
      `module.exports = { description: "d", parameters: { type: "object" }, execute(ctx, args) { return args.ttl ? ctx.store.set("x", "y", 60) : ctx.store.set(args.name, "y"); } };`,
    );
    const outside = await inst.run(["tool", "run", "bad", "--args", '{"name":"../escape"}']);
    expect(outside.code).toBe(1);
    expect(outside.stdout).toContain('ctx.store.set: name "../escape" must be a single path segment');
    const ttl = await inst.run(["tool", "run", "bad", "--args", '{"ttl":true}']);
    expect(ttl.code).toBe(1);
    expect(ttl.stdout).toContain("ctx.store.set: ttl_seconds must be omitted");
    expect(readdirSync(inst.riendaPath("store"))).toEqual(["remembered.json"]);
    expect(existsSync(inst.riendaPath("escape.json"))).toBe(false);
  });
});

describe("ctx.cache through rienda tool run", () => {
  test("the cached-get example fetches once, answers the second run from the cache, and fetches again once the entry expired", async () => {
    inst = new Instance();
    inst.tool("cached-get", docExample("cached-get"));
    const url = `${base}/catalogue`;
    const before = hits;
    const first = await inst.run(["tool", "run", "cached-get", "--args", JSON.stringify({ url })]);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ answer: 42, hit: before + 1, path: "/catalogue" });
    const file = inst.riendaPath("cache", `${encodeURIComponent(url)}.json`);
    const entry = JSON.parse(readFileSync(file, "utf8")) as { expires_at: string; payload: string };
    expect(entry.payload).toBe(first.stdout.trimEnd());
    expect(entry.expires_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    // 600 s, rounded up to a whole second.
    const lives = Date.parse(entry.expires_at) - Date.now();
    expect(lives).toBeGreaterThan(590_000);
    expect(lives).toBeLessThanOrEqual(601_000);
    expect(readFileSync(file, "utf8")).toBe(
      `{\n  "expires_at": "${entry.expires_at}",\n  "payload": ${JSON.stringify(entry.payload)}\n}\n`,
    );
    expect(mode(file)).toBe(0o600);
    expect(mode(inst.riendaPath("cache"))).toBe(0o700);

    const second = await inst.run(["tool", "run", "cached-get", "--args", JSON.stringify({ url })]);
    expect(second).toMatchObject({ code: 0, stdout: first.stdout });
    expect(hits).toBe(before + 1);

    // Expired (as the Go program would leave it): read as absent, removed, fetched and cached anew.
    writeFileSync(file, JSON.stringify({ expires_at: "2020-01-01T00:00:00Z", payload: "stale" }));
    const third = await inst.run(["tool", "run", "cached-get", "--args", JSON.stringify({ url })]);
    expect(third.code).toBe(0);
    expect(JSON.parse(third.stdout).hit).toBe(before + 2);
    expect((JSON.parse(readFileSync(file, "utf8")) as { payload: string }).payload).toBe(third.stdout.trimEnd());
  });

  test("a cache entry without a time to live is refused and nothing is written", async () => {
    inst = new Instance();
    inst.tool(
      "forever",
      `module.exports = { description: "d", parameters: { type: "object" }, execute(ctx) { return ctx.cache.set("x", "y"); } };`,
    );
    const r = await inst.run(["tool", "run", "forever"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("ctx.cache.set: ttl_seconds is required");
    expect(existsSync(inst.riendaPath("cache"))).toBe(false);
  });
});

describe("hooks of a run", () => {
  test("a hook counts the runs in ctx.store: each run's fresh context reads what the last one wrote", async () => {
    s = await scenario({ agentFrontmatter: "hooks: [counter]" });
    s.inst.hook(
      "counter",
      `module.exports = { beforeRun(ctx) { const n = Number(ctx.store.get("runs") || "0") + 1; ctx.store.set("runs", String(n)); ctx.cache.set("last-session", ctx.session.id, 3600); } };`,
    );
    s.server.script({ text: "one" }, { text: "two" });
    expect((await s.inst.run(["run", "-a", "coder", "-p", "first"])).code).toBe(0);
    const second = await s.inst.run(["run", "-a", "coder", "-p", "second"]);
    expect(second.code).toBe(0);
    expect(readFileSync(s.inst.riendaPath("store", "runs.json"), "utf8")).toBe(
      '{\n  "expires_at": "",\n  "payload": "2"\n}\n',
    );
    const last = JSON.parse(readFileSync(s.inst.riendaPath("cache", "last-session.json"), "utf8")) as {
      payload: string;
    };
    expect(second.stderr).toContain(last.payload);
  });
});
