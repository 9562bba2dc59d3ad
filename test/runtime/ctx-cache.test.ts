/**
 * `ctx.cache` and `ctx.store` (go-current.md §7, docs/tools.md): the files
 * of ~/.rienda/cache/ and ~/.rienda/store/ byte for byte, their modes, the
 * expiry, the names refused, and entries shared between fresh contexts.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRuntime, type Runtime } from "../../src/runtime/index.ts";
import { Sandbox } from "./support.ts";

let runtime: Runtime;
let box: Sandbox;
beforeAll(() => {
  runtime = createRuntime();
});
afterAll(async () => {
  await runtime.close();
});
beforeEach(() => (box = new Sandbox()));
afterEach(() => box.dispose());

/** Runs `body` as a tool's execute; a throw comes back as `{ threw: { name, message } }` from inside the context. */
async function run(body: string, on: Runtime = runtime): Promise<unknown> {
  const wrapped = `try {\n${body}\n} catch (e) { return { threw: { name: e.name, message: e.message } }; }`;
  const outcome = await on.invoke({
    modulePath: box.tool("t", wrapped),
    exportName: "execute",
    args: [{}],
    context: box.context(),
  });
  if (outcome.kind !== "returned") throw new Error(`unexpected ${JSON.stringify(outcome)}`);
  return outcome.value;
}

const cacheFile = (name: string) => join(box.riendaDir, "cache", `${name}.json`);
const storeFile = (name: string) => join(box.riendaDir, "store", `${name}.json`);
const mode = (path: string) => statSync(path).mode & 0o777;
/** What Go's time.RFC3339 writes for an instant in UTC. */
const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

describe("ctx.cache", () => {
  test("set writes the Go envelope (0600, folders 0700) and returns its expiry; get and has read it back", async () => {
    const before = Date.now();
    const r = (await run(`
      const expires = ctx.cache.set("models.dev", "hola\\n{\\"ü\\": 1}", 60);
      return { expires, get: ctx.cache.get("models.dev"), has: ctx.cache.has("models.dev"), missing: ctx.cache.get("nothing"), hasMissing: ctx.cache.has("nothing") };
    `)) as { expires: string; get: string; has: boolean; missing: null; hasMissing: boolean };
    expect(r).toEqual({ expires: r.expires, get: 'hola\n{"ü": 1}', has: true, missing: null, hasMissing: false });
    // Whole seconds in UTC, at least the 60 s asked for (rounded up), at most one more.
    expect(r.expires).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const at = Date.parse(r.expires);
    expect(at).toBeGreaterThanOrEqual(before + 60_000);
    expect(at).toBeLessThanOrEqual(Date.now() + 61_000);
    expect(readFileSync(cacheFile("models.dev"), "utf8")).toBe(
      `{\n  "expires_at": "${r.expires}",\n  "payload": "hola\\n{\\"ü\\": 1}"\n}\n`,
    );
    expect(mode(cacheFile("models.dev"))).toBe(0o600);
    expect(mode(join(box.riendaDir, "cache"))).toBe(0o700);
    expect(mode(box.riendaDir)).toBe(0o700);
    // No temporary file is left beside it.
    expect(readdirSync(join(box.riendaDir, "cache"))).toEqual(["models.dev.json"]);
  });

  test("an entry set in one call is read by the next, a fresh context (the file is the only link)", async () => {
    await run(`ctx.cache.set("shared", "from the first call", 3600);`);
    expect(await run(`return [ctx.cache.has("shared"), ctx.cache.get("shared")];`)).toEqual([
      true,
      "from the first call",
    ]);
    // A set replaces the entry as a whole; an empty text is an entry too.
    await run(`ctx.cache.set("shared", "", 3600);`);
    expect(await run(`return [ctx.cache.has("shared"), ctx.cache.get("shared")];`)).toEqual([true, ""]);
  });

  test("an entry the Go program wrote (compact JSON, fractional seconds or an offset) is read", async () => {
    mkdirSync(join(box.riendaDir, "cache"), { recursive: true });
    writeFileSync(
      cacheFile("go"),
      JSON.stringify({ expires_at: rfc3339(Date.now() + 3_600_000), payload: "catalogue" }),
    );
    writeFileSync(
      cacheFile("fraction"),
      JSON.stringify({ expires_at: new Date(Date.now() + 3_600_000).toISOString(), payload: "f" }),
    );
    writeFileSync(
      cacheFile("offset"),
      JSON.stringify({ expires_at: "9999-01-01T00:00:00+02:00", payload: "o", extra: true }),
    );
    expect(await run(`return ["go", "fraction", "offset"].map((n) => ctx.cache.get(n));`)).toEqual([
      "catalogue",
      "f",
      "o",
    ]);
  });

  test("an expired entry reads as null (and has as false) and its file is removed", async () => {
    mkdirSync(join(box.riendaDir, "cache"), { recursive: true });
    const expired = JSON.stringify({ expires_at: rfc3339(Date.now() - 60_000), payload: "stale" });
    writeFileSync(cacheFile("stale"), expired);
    expect(await run(`return ctx.cache.get("stale");`)).toBeNull();
    expect(existsSync(cacheFile("stale"))).toBe(false);
    writeFileSync(cacheFile("stale"), expired);
    expect(await run(`return ctx.cache.has("stale");`)).toBe(false);
    expect(existsSync(cacheFile("stale"))).toBe(false);
  });

  test("an entry whose time to live runs out while nobody looks is gone at the next read", async () => {
    const expires = (await run(`return ctx.cache.set("brief", "soon gone", 0.001);`)) as string;
    // Rounded up to the next whole second: it lives until then and no longer.
    while (Date.now() <= Date.parse(expires)) await new Promise((r) => setTimeout(r, 50));
    expect(await run(`return ctx.cache.get("brief");`)).toBeNull();
    expect(existsSync(cacheFile("brief"))).toBe(false);
  });

  test("a damaged entry reads as absent and is removed; the next set replaces it", async () => {
    mkdirSync(join(box.riendaDir, "cache"), { recursive: true });
    const later = rfc3339(Date.now() + 3_600_000);
    const damaged: Record<string, string> = {
      "not-json": "{ half",
      array: "[1, 2]",
      "no-payload": JSON.stringify({ expires_at: later }),
      "number-payload": JSON.stringify({ expires_at: later, payload: 3 }),
      "no-expiry": JSON.stringify({ payload: "x" }),
      "empty-expiry": JSON.stringify({ expires_at: "", payload: "x" }),
      "bad-expiry": JSON.stringify({ expires_at: "tomorrow", payload: "x" }),
      "date-only": JSON.stringify({ expires_at: "2999-01-01", payload: "x" }),
    };
    for (const [name, text] of Object.entries(damaged)) writeFileSync(cacheFile(name), text);
    const names = JSON.stringify(Object.keys(damaged));
    expect(await run(`return ${names}.map((n) => ctx.cache.get(n));`)).toEqual(Object.keys(damaged).map(() => null));
    expect(readdirSync(join(box.riendaDir, "cache"))).toEqual([]);
    writeFileSync(cacheFile("not-json"), "{ half");
    expect(await run(`ctx.cache.set("not-json", "fixed", 60); return ctx.cache.get("not-json");`)).toBe("fixed");
  });

  test("the time to live is required, a number and positive; nothing is written otherwise", async () => {
    const cases: Array<[string, string, string]> = [
      ["", "TypeError", "ctx.cache.set: ttl_seconds is required"],
      [", undefined", "TypeError", "ctx.cache.set: ttl_seconds is required"],
      [", null", "TypeError", "ctx.cache.set: ttl_seconds is required"],
      [', "60"', "TypeError", "ctx.cache.set: ttl_seconds must be a number of seconds (got string)"],
      [", 0", "Error", "ctx.cache.set: ttl_seconds must be a positive number of seconds (got 0)"],
      [", -5", "Error", "ctx.cache.set: ttl_seconds must be a positive number of seconds (got -5)"],
      [", NaN", "TypeError", "ctx.cache.set: ttl_seconds is required"],
      [", Infinity", "TypeError", "ctx.cache.set: ttl_seconds is required"],
      [
        ", 1e15",
        "Error",
        "ctx.cache.set: ttl_seconds 1000000000000000 is too large (the expiry would fall after the year 9999)",
      ],
    ];
    for (const [ttl, name, message] of cases) {
      const r = (await run(`ctx.cache.set("x", "y"${ttl}); return "written";`)) as {
        threw: { name: string; message: string };
      };
      expect([ttl, r.threw?.name, r.threw?.message.slice(0, message.length)]).toEqual([ttl, name, message]);
    }
    expect(existsSync(box.riendaDir)).toBe(false);
  });

  test("the text must be a string (a TypeError), and nothing is written", async () => {
    const r = (await run(`ctx.cache.set("x", { a: 1 }, 60);`)) as { threw: { name: string; message: string } };
    expect(r.threw).toEqual({
      name: "TypeError",
      message: "ctx.cache.set: text must be a string (serialize it yourself, e.g. JSON.stringify)",
    });
    expect(existsSync(box.riendaDir)).toBe(false);
  });

  test("a cache folder that cannot be written fails set with the file and the reason", async () => {
    mkdirSync(box.riendaDir, { recursive: true });
    writeFileSync(join(box.riendaDir, "cache"), "a file where the folder should be");
    const r = (await run(`ctx.cache.set("x", "y", 60);`)) as { threw: { message: string } };
    expect(r.threw.message).toBe(`ctx.cache.set: cannot write ${cacheFile("x")}: a folder on its way is a file`);
    const read = (await run(`ctx.cache.get("x");`)) as { threw: { message: string } };
    expect(read.threw.message).toBe(`ctx.cache.get: cannot read ${cacheFile("x")}: not a directory`);
  });
});

describe("names", () => {
  const refused = ["", ".", "..", "../escape", "a/b", "/abs", "a\\b", "..\\up", "nul\u0000byte"];
  const calls = [
    'ctx.cache.set(NAME, "v", 60)',
    "ctx.cache.get(NAME)",
    "ctx.cache.has(NAME)",
    'ctx.store.set(NAME, "v")',
    "ctx.store.get(NAME)",
    "ctx.store.has(NAME)",
    "ctx.store.del(NAME)",
  ];

  test("a name that is not a single path segment is refused by every member, and nothing is written", async () => {
    const source = `
      const out = [];
      for (const name of ${JSON.stringify(refused)}) {
        for (const call of [${calls.map((c) => `(NAME) => ${c}`).join(", ")}]) {
          try { call(name); out.push("accepted " + JSON.stringify(name)); } catch (e) { out.push(e.name + ": " + e.message); }
        }
      }
      return out;`;
    const out = (await run(source)) as string[];
    expect(out).toHaveLength(refused.length * calls.length);
    for (const line of out)
      expect(line).toMatch(
        /^Error: ctx\.(cache|store)\.(set|get|has|del): name ".*" must be a single path segment \(not empty, not "\." or "\.\.", no "\/", "\\" or NUL\)$/,
      );
    expect(out[0]).toBe(
      'Error: ctx.cache.set: name "" must be a single path segment (not empty, not "." or "..", no "/", "\\" or NUL)',
    );
    expect(out.filter((l) => l.includes('name "../escape"'))).toHaveLength(calls.length);
    expect(out.filter((l) => l.includes('name "nul\\u0000byte"'))).toHaveLength(calls.length);
    // Nothing anywhere: not the entry, not its folder, not even ~/.rienda.
    expect(existsSync(box.riendaDir)).toBe(false);
    expect(existsSync(join(box.root, "home", "escape.json"))).toBe(false);
  });

  test("a name must be a string (a TypeError)", async () => {
    const r = await run(
      `return [() => ctx.cache.get(3), () => ctx.store.set(null, "v")].map((f) => { try { f(); return "accepted"; } catch (e) { return e.name + ": " + e.message; } });`,
    );
    expect(r).toEqual([
      "TypeError: ctx.cache.get: name must be a string",
      "TypeError: ctx.store.set: name must be a string",
    ]);
  });

  test("dots inside a name and names that start with one are plain file names", async () => {
    expect(
      await run(
        `ctx.store.set(".hidden", "h"); ctx.cache.set("models.dev", "m", 60); return [ctx.store.get(".hidden"), ctx.cache.get("models.dev")];`,
      ),
    ).toEqual(["h", "m"]);
    expect(existsSync(storeFile(".hidden"))).toBe(true);
  });
});

describe("ctx.store", () => {
  test("set writes the envelope with an empty expiry (0600); get, has and del; deleting an absent entry does nothing", async () => {
    const r = await run(`
      const set = ctx.store.set("note", "remember me");
      const read = [ctx.store.has("note"), ctx.store.get("note"), ctx.store.get("absent"), ctx.store.has("absent")];
      return { set: set === undefined, read, del: ctx.store.del("absent") === undefined };
    `);
    expect(r).toEqual({ set: true, read: [true, "remember me", null, false], del: true });
    expect(readFileSync(storeFile("note"), "utf8")).toBe('{\n  "expires_at": "",\n  "payload": "remember me"\n}\n');
    expect(mode(storeFile("note"))).toBe(0o600);
    expect(mode(join(box.riendaDir, "store"))).toBe(0o700);
    expect(readdirSync(box.riendaDir)).toEqual(["store"]);
    // A later call, a fresh context, reads it, then deletes it.
    expect(
      await run(`const before = ctx.store.get("note"); ctx.store.del("note"); return [before, ctx.store.has("note")];`),
    ).toEqual(["remember me", false]);
    expect(existsSync(storeFile("note"))).toBe(false);
  });

  test("a time to live is refused and nothing is written; an undefined one is no time to live", async () => {
    const r = (await run(`ctx.store.set("x", "y", 60);`)) as { threw: { name: string; message: string } };
    expect(r.threw.name).toBe("Error");
    expect(r.threw.message).toStartWith("ctx.store.set: ttl_seconds must be omitted");
    expect(existsSync(box.riendaDir)).toBe(false);
    expect(await run(`ctx.store.set("x", "y", undefined); return ctx.store.get("x");`)).toBe("y");
  });

  test("the text must be a string (a TypeError), and nothing is written", async () => {
    const r = (await run(`ctx.store.set("x", 42);`)) as { threw: { name: string; message: string } };
    expect(r.threw).toEqual({
      name: "TypeError",
      message: "ctx.store.set: text must be a string (serialize it yourself, e.g. JSON.stringify)",
    });
    expect(existsSync(box.riendaDir)).toBe(false);
  });

  test("a damaged store entry fails get and has naming its file, and is kept; set and del still work on it", async () => {
    mkdirSync(join(box.riendaDir, "store"), { recursive: true });
    writeFileSync(storeFile("broken"), "{ not json");
    const r = (await run(
      `return [() => ctx.store.get("broken"), () => ctx.store.has("broken")].map((f) => { try { return f(); } catch (e) { return e.message; } });`,
    )) as string[];
    const message = `${storeFile("broken")} is not a store entry (expected {"expires_at": "", "payload": "<text>"}); fix or remove it, or replace it with ctx.store.set`;
    expect(r).toEqual([`ctx.store.get: ${message}`, `ctx.store.has: ${message}`]);
    expect(readFileSync(storeFile("broken"), "utf8")).toBe("{ not json");
    expect(await run(`ctx.store.set("broken", "mended"); return ctx.store.get("broken");`)).toBe("mended");
    writeFileSync(storeFile("broken"), "[]");
    await run(`ctx.store.del("broken");`);
    expect(existsSync(storeFile("broken"))).toBe(false);
  });

  test("a store entry never expires, whatever its expires_at says", async () => {
    mkdirSync(join(box.riendaDir, "store"), { recursive: true });
    writeFileSync(storeFile("old"), JSON.stringify({ expires_at: "2000-01-01T00:00:00Z", payload: "kept" }));
    expect(await run(`return ctx.store.get("old");`)).toBe("kept");
    expect(existsSync(storeFile("old"))).toBe(true);
  });

  test("cache and store are apart: the same name in each is two entries", async () => {
    expect(
      await run(
        `ctx.cache.set("n", "cached", 60); ctx.store.set("n", "stored"); return [ctx.cache.get("n"), ctx.store.get("n")];`,
      ),
    ).toEqual(["cached", "stored"]);
  });
});

// The members are bridge calls in both kinds of context, and a provider module (module.exports itself) has them too.
for (const contexts of ["workers", "realms"] as const) {
  test(`ctx.cache and ctx.store work the same in ${contexts}, for a module that is a function too`, async () => {
    const own = createRuntime({ contexts });
    if (contexts === "realms") {
      own.expectCalls();
      await own.settled();
    }
    try {
      const path = box.module(
        "provider",
        `module.exports = function (ctx) { ctx.store.set("s", "stored"); return [ctx.cache.set("c", "cached", 60).length, ctx.cache.get("c"), ctx.store.get("s"), typeof ctx.store.del]; };`,
      );
      const outcome = await own.invoke({ modulePath: path, exportName: "", args: [], context: box.context() });
      expect(outcome).toEqual({ kind: "returned", value: [20, "cached", "stored", "function"], type: "an array" });
    } finally {
      await own.close();
    }
  });
}
