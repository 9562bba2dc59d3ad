/**
 * Adversarial freshness cases (issue 16), written once and run against every
 * context design: the shipped one (test/runtime/freshness.test.ts) and the
 * realm prototype (bench/realm/freshness-report.ts). Each case is a module
 * that reports what it sees, then changes something; called three times,
 * every call must see what the first saw. Nothing may happen after a call
 * either (a side effect left for later must never run).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface FreshnessCase {
  name: string;
  /** Files of the module's folder; `index.js` is the module. `execute(ctx, args)` returns a string. */
  files: Record<string, string>;
  /** A side effect that must never happen: the file `args.marker` must not exist after the calls. */
  leftover?: boolean;
}

/** The one export the cases need: `execute(ctx, args)` of `modulePath`, resolving with its returned value or a failure. */
export type Invoke = (
  modulePath: string,
  args: Record<string, unknown>,
) => Promise<{ kind: string; value?: unknown; message?: string }>;

/** `execute` that reports `seen` (an expression) and then runs `change`. */
const probe = (seen: string, change: string, preamble = "") => ({
  "index.js": `${preamble}
module.exports = { execute(ctx, args) {
  const seen = String(${seen});
  ${change};
  return seen;
} };`,
});

export const FRESHNESS_CASES: FreshnessCase[] = [
  { name: "module variables", files: probe("++counter", "", "let counter = 0;") },
  {
    name: "globals",
    files: probe("typeof globalThis.leaked + typeof leakedVar", "globalThis.leaked = 1; leakedVar = 2"),
  },
  { name: "Object.prototype", files: probe("({}).polluted", "Object.prototype.polluted = 'yes'") },
  { name: "JSON", files: probe("JSON.stringify({ a: 1 })", "JSON.stringify = () => 'patched'") },
  {
    name: "Array.prototype.push",
    files: probe(
      "(() => { const a = []; a.push(1); return a.length; })()",
      "Array.prototype.push = function () { return 0; }",
    ),
  },
  { name: "Function.prototype", files: probe("typeof Function.prototype.patched", "Function.prototype.patched = 1") },
  {
    name: "an intrinsic reached through a literal (array iterator)",
    files: probe("[...[1, 2]].length", "Object.getPrototypeOf([][Symbol.iterator]()).next = () => ({ done: true })"),
  },
  {
    name: "Error.prepareStackTrace",
    files: probe("String(Error.prepareStackTrace)", "Error.prepareStackTrace = () => 'patched'"),
  },
  {
    name: "require('node:fs').readFileSync",
    files: probe("require('node:fs').readFileSync.name", "require('node:fs').readFileSync = function patched() {}"),
  },
  {
    name: "a nested built-in member (fs.promises)",
    files: probe(
      "require('node:fs').promises.readFile.name",
      "require('node:fs').promises.readFile = function patched() {}",
    ),
  },
  {
    name: "a built-in's prototype (EventEmitter)",
    files: probe(
      "require('node:events').EventEmitter.prototype.emit.name",
      "require('node:events').EventEmitter.prototype.emit = function patched() {}",
    ),
  },
  {
    name: "Buffer.prototype",
    files: probe("Buffer.from('hi').toString()", "Buffer.prototype.toString = () => 'patched'"),
  },
  {
    name: "process.env",
    files: probe("process.env.RIENDA_FRESHNESS_PROBE", "process.env.RIENDA_FRESHNESS_PROBE = 'leaked'"),
  },
  // The file mode mask is the process's, shared with Rienda and every command it starts: the runtime puts it back.
  { name: "process.umask", files: probe("process.umask().toString(8)", "process.umask(0)") },
  {
    name: "process members",
    files: probe(
      "typeof process.patched + process.cwd.name",
      "process.patched = 1; process.cwd = function patched() {}",
    ),
  },
  {
    name: "a required file's state",
    files: { ...probe("require('./lib.js').next()", ""), "lib.js": "let n = 0; module.exports = { next: () => ++n };" },
  },
  {
    name: "require.cache",
    files: probe(
      "Object.keys(require.cache).filter((k) => k.endsWith('planted.js')).length",
      "require.cache['/planted.js'] = { exports: 1 }",
    ),
  },
  {
    name: "the host's globals, reached through a ctx function",
    files: probe(
      "typeof ctx.log.constructor('return globalThis')().leakedThroughCtx",
      "ctx.log.constructor('return globalThis')().leakedThroughCtx = 1",
    ),
  },
  {
    name: "the host's globals, reached through a built-in function",
    files: probe(
      "typeof require('node:fs').readFileSync.constructor('return globalThis')().leakedThroughBuiltIn",
      "require('node:fs').readFileSync.constructor('return globalThis')().leakedThroughBuiltIn = 1",
    ),
  },
  {
    // In Bun, fs reads into a Buffer of the realm that made the caller's: a design with realms must not let it through.
    name: "a prototype reached through a Buffer fs returns",
    files: probe(
      "typeof require('node:fs').readFileSync(__filename).patched + (require('node:fs').readFileSync(__filename) instanceof Uint8Array)",
      "let p = require('node:fs').readFileSync(__filename); while ((p = Object.getPrototypeOf(p))) { try { p.patched = 1; } catch {} }",
    ),
  },
  {
    name: "the host's globals, reached through a Buffer fs returns",
    files: probe(
      "(() => { try { return typeof require('node:fs').readFileSync(__filename).constructor.constructor('return globalThis')().leakedThroughBuffer; } catch { return 'refused'; } })()",
      "try { require('node:fs').readFileSync(__filename).constructor.constructor('return globalThis')().leakedThroughBuffer = 1; } catch {}",
    ),
  },
  {
    name: "prototypes reached through a Buffer fs returns (ES module)",
    files: {
      ...probe("require('./read.mjs').seen", "require('./read.mjs').change()"),
      "read.mjs": `import { readFileSync } from "node:fs";
const buffer = readFileSync(new URL(import.meta.url).pathname);
const reached = [buffer, buffer.entries(), buffer.buffer, buffer.subarray(0, 1)];
export const seen = reached.map((o) => typeof o.patchedFromEsm).join(" ") + (buffer instanceof Uint8Array);
export function change() { for (let p of reached) while ((p = Object.getPrototypeOf(p))) { try { p.patchedFromEsm = 1; } catch {} } }`,
    },
  },
  {
    // A thread of its own: it must end with the call, as a worker's nested workers end with it.
    name: "a Worker started by the call",
    leftover: true,
    files: {
      ...probe(
        "'called'",
        "new (require('node:worker_threads').Worker)(require('node:path').join(__dirname, 'late.js'), { workerData: args.marker })",
      ),
      "late.js":
        "const { workerData } = require('node:worker_threads'); require('node:fs').writeFileSync(workerData + '.started', ''); setTimeout(() => require('node:fs').writeFileSync(workerData, 'worker'), 5);",
    },
  },
  {
    name: "a promise callback left behind that never ends",
    files: probe("'called'", "Promise.resolve().then(() => { for (;;) {} })"),
  },
  {
    name: "a promise callback or timer left behind",
    leftover: true,
    files: probe(
      "'called'",
      "Promise.resolve().then(() => require('node:fs').writeFileSync(args.marker, 'promise')); setTimeout(() => require('node:fs').writeFileSync(args.marker, 'timer'), 0)",
    ),
  },
];

/** How one case went: ok, or what differed. */
export interface CaseResult {
  name: string;
  ok: boolean;
  detail: string;
}

/** Runs every case (or those `only` keeps) three times through `invoke`; never throws. */
export async function runFreshnessCases(
  invoke: Invoke,
  settle: () => Promise<void> = async () => {},
  only: (c: FreshnessCase) => boolean = () => true,
): Promise<CaseResult[]> {
  const root = mkdtempSync(join(tmpdir(), "rienda-freshness-"));
  const results: CaseResult[] = [];
  try {
    for (const [index, c] of FRESHNESS_CASES.entries()) {
      if (!only(c)) continue;
      const dir = join(root, `case${index}`);
      for (const [name, text] of Object.entries(c.files)) {
        mkdirSync(dirname(join(dir, name)), { recursive: true });
        writeFileSync(join(dir, name), text);
      }
      const marker = join(dir, "leftover-ran");
      const seen: string[] = [];
      let detail = "";
      for (let i = 0; i < 3 && detail === ""; i++) {
        await settle();
        const outcome = await invoke(join(dir, "index.js"), { marker });
        if (outcome.kind !== "returned") detail = `call ${i + 1}: ${outcome.kind} ${outcome.message ?? ""}`.trim();
        else seen.push(String(outcome.value));
      }
      if (c.leftover) {
        await new Promise((r) => setTimeout(r, 150));
        if (existsSync(marker)) detail = "a side effect left behind ran after the call";
      }
      if (detail === "" && new Set(seen).size !== 1)
        detail = `calls saw ${seen.map((s) => JSON.stringify(s)).join(", ")}`;
      results.push({ name: c.name, ok: detail === "", detail });
    }
  } finally {
    delete process.env.RIENDA_FRESHNESS_PROBE;
    rmSync(root, { recursive: true, force: true });
  }
  return results;
}
