/**
 * Prototype (issue 16): the helper worker of the ShadowRealm design. It lives
 * for many calls; each call (and each module looked at) gets a new
 * ShadowRealm. In Bun a ShadowRealm has a whole global of its own: its own
 * intrinsics, `process` (with a copy of the environment), `Buffer`, `fetch`,
 * timers, and its own instances of the `node:` built-ins and module cache,
 * so a module is loaded by the realm's own `require` as in a worker and
 * nothing it changes is seen by the next realm.
 *
 * Only primitives and functions cross a realm's boundary, so `ctx` is built
 * inside the realm (BOOTSTRAP) around three functions of this worker that
 * take and return strings; the answer comes back as JSON text.
 *
 * Once it serves, this worker never returns to its event loop (serve): it
 * waits for the next request in `Atomics.wait`. So what a call leaves behind
 * (a promise callback, a timer, an I/O callback) never runs, as the spec
 * wants ("the call's context is frozen the moment execute returns").
 *
 * One hole is Bun's: the Buffers `fs` reads into (readFileSync, readFile,
 * promises.readFile) are made with this worker's own `Buffer`, so through
 * them a realm reaches this worker's prototypes, which every later realm
 * shares, and its Function constructor (`bun bench/realm/shadow-realm-boundary.ts`).
 * Two answers, both here: the realm's `fs` copies such a Buffer into one of
 * its own (so `instanceof Uint8Array` holds, as in Node), and this worker's
 * intrinsics and `Buffer` are frozen before the first realm
 * (freeze-intrinsics.ts), so a Buffer that slips past the copy, as in an ES
 * module's `import { readFileSync }`, changes nothing, and its
 * `constructor.constructor` no longer evaluates code here.
 *
 * Not shipped: bench/realm/ compares it with the worker design.
 */
import { createHelperBridge, CTX_SOURCE, type CallMessage, type HelperRequest } from "./helper-bridge.ts";
import { CONTROL_DOORBELL, CONTROL_HEADER_BYTES, CONTROL_LENGTH } from "./shadow-realm-control.ts";
import { freezeIntrinsics } from "../../src/runtime/freeze-intrinsics.ts";

type RealmLike = { evaluate(source: string): unknown };
type Entry = (dataJson: string, mode: string, modulePath: string, exportName: string, argsJson: string) => void;
type Bootstrap = (hostCall: (request: string) => string, hostSleep: (ms: number) => void, hostDone: (reply: string) => void, unguarded: boolean) => Entry;

const scope = globalThis as unknown as {
  ShadowRealm: new () => RealmLike;
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
};
const Realm = scope.ShadowRealm;
const post = (message: unknown) => scope.postMessage(message);
const startDirectory = process.cwd();
/** RIENDA_REALM_UNGUARDED=1: neither the fs copy nor the frozen intrinsics, to show what the freshness cases catch without them. */
const unguarded = process.env.RIENDA_REALM_UNGUARDED === "1";
const chdir = (dir: string) => process.chdir(dir);
const startUmask = process.umask();
const umask = (mask: number) => process.umask(mask);

const bridge = createHelperBridge();
const hostCall = (request: string) => bridge.hostCall(request);
const hostSleep = (ms: number) => bridge.hostSleep(ms);

/**
 * Run inside each realm: builds ctx, sends printing to the log, tracks
 * timers (cleared when the call ends), makes the realm's fs hand out the
 * realm's own Buffers, loads the module with the realm's own require, and
 * answers through hostDone with JSON text.
 */
const BOOTSTRAP = `(function (hostCall, hostSleep, hostDone, unguarded) {
  // What the answer needs, taken before the module can change it: a module that patches JSON still gets its answer home.
  const uncurry = (fn) => Function.prototype.call.bind(fn);
  const stringify = JSON.stringify, parse = JSON.parse, clone = structuredClone;
  const forEach = uncurry(Set.prototype.forEach), addTo = uncurry(Set.prototype.add);
${CTX_SOURCE}

  // Printing goes to the log: this process's stdout carries the run's answer.
  for (const name of ["log", "info", "warn", "error", "debug", "trace"]) console[name] = log;
  const sink = (fd) => {
    const stream = {
      fd, isTTY: false, writable: true,
      write(chunk, encoding, done) {
        const text = typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
        if (text !== "") log(text);
        const callback = typeof encoding === "function" ? encoding : done;
        if (typeof callback === "function") callback();
        return true;
      },
      on() { return stream; }, once() { return stream; }, off() { return stream; }, end() {},
    };
    return stream;
  };
  // Touching process.stdout makes Bun build the stream (about 9 ms, node:stream): process is
  // handed out behind a proxy that gives the sinks instead, as the worker design does.
  const realProcess = process;
  const sinks = { stdout: sink(1), stderr: sink(2) };
  const processProxy = new Proxy(realProcess, {
    get: (target, key) => (key === "stdout" || key === "stderr" ? sinks[key] : Reflect.get(target, key)),
    set: (target, key, value) => Reflect.set(target, key, value),
  });
  Object.defineProperty(globalThis, "process", { value: processProxy, configurable: true, writable: true, enumerable: true });
  class ProcessExit extends Error {}
  realProcess.exit = (code) => { throw new ProcessExit(String(code ?? 0)); };
  // process.abort() would end the whole process, Rienda with it.
  realProcess.abort = () => { throw new Error("process.abort() cannot end Rienda: it fails this call"); };

  // Timers never fire (this worker never returns to its event loop); clearing them when the call
  // ends lets what they hold go.
  const pending = new Set();
  const track = (set, clear) => {
    const wrapped = function (...args) { const handle = set(...args); addTo(pending, () => clear(handle)); return handle; };
    return wrapped;
  };
  globalThis.setTimeout = track(setTimeout, clearTimeout);
  globalThis.setInterval = track(setInterval, clearInterval);
  globalThis.setImmediate = track(setImmediate, clearImmediate);
  let over = false;
  const finish = (reply) => {
    if (over) return;
    over = true;
    forEach(pending, (clear) => clear());
    let text;
    try { text = stringify(reply); } catch { text = stringify({ kind: "threw", message: "the answer could not be copied" }); }
    hostDone(text);
  };

  // Bun reads files into Buffers of the realm that made this one: copy them into the realm's own.
  const own = (value) => (!unguarded && value && typeof value === "object" && !(value instanceof Uint8Array) && typeof value.byteLength === "number" ? Buffer.from(value) : value);
  const patched = new WeakSet();
  const patchFs = (fs) => {
    if (!fs || patched.has(fs)) return fs;
    patched.add(fs);
    if (typeof fs.readFileSync === "function") { const read = fs.readFileSync; fs.readFileSync = function readFileSync(...a) { return own(read.apply(this, a)); }; }
    if (typeof fs.readFile === "function" && !fs.promises) { const read = fs.readFile; fs.readFile = function readFile(...a) { return read.apply(this, a).then(own); }; }
    else if (typeof fs.readFile === "function") {
      const read = fs.readFile;
      fs.readFile = function readFile(...a) {
        const last = a.length - 1;
        if (typeof a[last] === "function") { const done = a[last]; a[last] = (error, value) => done(error, own(value)); }
        return read.apply(this, a);
      };
      patchFs(fs.promises);
    }
    return fs;
  };
  const Module = realProcess.getBuiltinModule("node:module");
  const FS_IDS = new Set(["fs", "node:fs", "fs/promises", "node:fs/promises"]);
  const require = Module.prototype.require;
  Module.prototype.require = function (id) {
    if (id === "process" || id === "node:process") return processProxy;
    const value = require.apply(this, arguments);
    return FS_IDS.has(id) ? patchFs(value) : value;
  };
  const getBuiltin = realProcess.getBuiltinModule;
  realProcess.getBuiltinModule = function getBuiltinModule(id) {
    if (id === "process" || id === "node:process") return processProxy;
    const value = getBuiltin.call(realProcess, id);
    return FS_IDS.has(id) ? patchFs(value) : value;
  };

  const describeType = (value) => {
    if (value === undefined) return "undefined";
    if (value === null) return "null";
    if (Array.isArray(value)) return "an array";
    if (typeof value === "object" && typeof value.then === "function") return "a Promise";
    const t = typeof value;
    return t === "object" ? "an object" : "a " + t;
  };
  const describeThrown = (error) => {
    if (error instanceof ProcessExit) return "the module ended its context (process.exit(" + error.message + "))";
    if (error && typeof error === "object" && typeof error.message === "string") {
      const name = typeof error.name === "string" && error.name !== "Error" && error.name !== "" ? error.name + ": " : "";
      return name + error.message;
    }
    return String(error);
  };
  const copy = (value) => { try { return clone(value); } catch { try { return parse(stringify(value) ?? "null"); } catch { return undefined; } } };

  // The rest needs the call: run when it comes (the realm above is made before, while the helper waits).
  return function (dataJson, mode, modulePath, exportName, argsJson) {
  const data = parse(dataJson);
  const ctx = makeCtx(data);

  let mod;
  try {
    mod = Module.createRequire(modulePath)(modulePath);
  } catch (error) {
    return finish(error instanceof ProcessExit ? { kind: "threw", message: describeThrown(error) } : { kind: "load-failed", message: describeThrown(error) });
  }
  if (mode === "inspect") {
    const members = {};
    if (mod !== null && (typeof mod === "object" || typeof mod === "function")) {
      for (const key of Object.keys(mod)) {
        const value = mod[key];
        const member = { type: describeType(value) };
        if (typeof value !== "function") member.value = copy(value);
        members[key] = member;
      }
    }
    return finish({ kind: "inspected", shape: { type: describeType(mod), members } });
  }
  const target = mod?.[exportName];
  if (typeof target !== "function") return finish({ kind: "load-failed", message: 'the module does not export a function "' + exportName + '"' });
  let value;
  try {
    value = Reflect.apply(target, mod, [ctx, ...parse(argsJson)]);
  } catch (error) {
    return finish({ kind: "threw", message: describeThrown(error) });
  }
  // A Promise is answered as one: this realm never runs again, so it never settles (tools.md).
  if (value && typeof value.then === "function") return finish({ kind: "returned", value: undefined, type: "a Promise" });
  finish({ kind: "returned", value: copy(value), type: describeType(value) });
  };
})`;

/** What an inspection's realm holds as ctx data: nothing runs with it, loading is not calling. */
const NO_DATA = { workdir: "", session: null, agent: null, config: {} };

/** Where the reply of the call in progress goes; hostDone takes it once. */
let replyTo: ((reply: Record<string, unknown>) => void) | undefined;

function hostDone(reply: string): void {
  const done = replyTo;
  replyTo = undefined;
  if (!done) return;
  // A call may change the directory and the file mode mask of the whole process: the next one starts with this one's.
  if (process.cwd() !== startDirectory) chdir(startDirectory);
  umask(startUmask);
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(String(reply)) as Record<string, unknown>;
  } catch {
    parsed = { kind: "threw", message: "the context's answer could not be read" };
  }
  done(parsed);
}

/** A new realm with its set-up done, waiting for its call: made while the helper has nothing to do. */
function prepare(): Entry {
  const bootstrap = new Realm().evaluate(BOOTSTRAP) as Bootstrap;
  return bootstrap(hostCall, hostSleep, hostDone, unguarded);
}

let next: Entry | undefined;

/** Runs one call in a new realm; `done` gets its reply, before this returns. */
function run(message: CallMessage, done: (reply: Record<string, unknown>) => void): void {
  replyTo = done;
  try {
    const entry = next ?? prepare();
    next = undefined;
    entry(JSON.stringify(message.data ?? NO_DATA), message.mode, message.modulePath, message.exportName ?? "", JSON.stringify(message.args ?? []));
  } catch (error) {
    hostDone(JSON.stringify({ kind: "threw", message: `the context failed: ${(error as Error).message}` }));
  }
  // Never answered (cannot happen unless the realm broke its own finish): answer for it.
  hostDone(JSON.stringify({ kind: "threw", message: "the context did not answer" }));
}

/**
 * The requests: a second shared buffer, which the host fills and rings.
 * This worker never returns to its event loop once it serves: it blocks in
 * `Atomics.wait` between calls. So what a call leaves behind (a promise
 * callback, a timer, an I/O callback) never runs, as in a worker that is
 * ended when its call returns, and the next call starts at once. Replies go
 * out with postMessage, which needs no turn of this worker's loop.
 */
function serve(control: SharedArrayBuffer): never {
  const decoder = new TextDecoder();
  const bell = new Int32Array(control, 0, 2);
  for (;;) {
    try {
      next ??= prepare();
    } catch {
      // Made again when the call comes, where a failure is the call's answer.
    }
    while (Atomics.load(bell, CONTROL_DOORBELL) === 0) Atomics.wait(bell, CONTROL_DOORBELL, 0);
    const text = decoder.decode(new Uint8Array(control, CONTROL_HEADER_BYTES, Atomics.load(bell, CONTROL_LENGTH)).slice());
    Atomics.store(bell, CONTROL_DOORBELL, 0);
    const message = JSON.parse(text) as HelperRequest;
    if (message.kind === "inspect-all") {
      // Discovery: every module in a realm of its own, all in one request.
      const replies: Record<string, unknown>[] = [];
      for (const modulePath of message.paths) run({ kind: "call", mode: "inspect", modulePath }, (reply) => replies.push(reply));
      post({ kind: "inspected-all", replies });
      continue;
    }
    // The bridge starts over for each call: the state word back to IDLE, no interrupt.
    bridge.reset();
    run(message, post);
  }
}

scope.onmessage = (event: MessageEvent) => {
  const message = event.data as { kind: "init"; buffer: SharedArrayBuffer; control: SharedArrayBuffer };
  if (!unguarded && !Object.isFrozen(Object.prototype)) throw new Error("the helper is not frozen: no realm may run in it");
  bridge.attach(message.buffer);
  post({ kind: "ready" });
  serve(message.control);
};

// Freeze this worker's intrinsics and globals before the first realm (this
// module is evaluated synchronously, so before any message is handled): what a
// realm gets hold of from here (a Buffer of fs) then changes nothing for the next.
if (!unguarded) freezeIntrinsics();
