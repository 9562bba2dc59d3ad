/**
 * What runs inside every fresh context, a worker (invoke-worker.ts) or a
 * ShadowRealm (realm-helper-worker.ts): the `ctx` members, the console and
 * stdout routing, the supervision of processes a module starts, loading
 * the module and calling its export, and describing what came of it.
 *
 * `contextKernel` refers to nothing outside itself (types aside, erased at
 * build): a realm evaluates it from its source text (`contextKernel.toString()`,
 * checked by test/runtime/context-kernel.test.ts), since only primitives
 * and functions cross a realm's edge. So the context reaches the host only
 * through the two functions it is given:
 * - `exchange`: one synchronous `ctx` request as JSON text, answered as
 *   "R" + JSON, "E" + message (an Error), "T" + message (a TypeError) or
 *   "I" (the call was interrupted);
 * - `word`: Atomics on the words of the call's bridge buffer (the
 *   interrupt word `ctx.sleep` waits on, the table of process groups).
 *
 * Invariants:
 * - Everything is set up when the kernel is made, before any module runs:
 *   every route to a spawn, to `process.abort` and to stdout is covered by then.
 * - What the answer needs (JSON, Object.keys, ...) is taken from the
 *   built-ins then too: a module that patches them still gets its answer home.
 */
import type { CallMessage, CallReply, InspectListMessage, ListReply } from "./worker-messages.ts";
import type { ContextData, MemberShape, ModuleShape } from "./types.ts";
import type { StdioSpec, SyncSpawnAnswer, SyncSpawnRequest } from "./host-spawn-sync.ts";

/** Loads a CommonJS module (or a built-in) by absolute path or id. */
export type LoadFn = (path: string) => unknown;

/** The Atomics operations a context may do on its bridge buffer's words (strings: they cross a realm's edge). */
export type WordOpName = "load" | "store" | "notify" | "wait";

/**
 * Atomics `op` on word `index` of the bridge buffer; "wait" answers 0
 * (woken), 1 (timed out) or 2 (not equal), the others what Atomics answers.
 */
export type WordOp = (op: WordOpName, index: number, value: number, timeoutMs: number) => number;

/** A context's whole life: one call (or one list of modules looked at). */
export interface ContextKernel {
  /** The `ctx` data the next call will most likely use: its ctx is built now. */
  expect(data: ContextData): void;
  /** Loads the module and calls the export (or looks at it); the reply says how that went. */
  run(init: CallMessage, load: LoadFn): CallReply;
  /** Sends a reply; one that cannot be copied whole is sent with what JSON can carry. */
  deliver(reply: CallReply, send: (message: unknown) => void): void;
  /** A discovery lane: see inspectList. */
  inspectList(message: InspectListMessage, load: LoadFn, send: (message: ListReply) => void): void;
  /** A dry run of the call path, so the first real call does not pay for compiling it. */
  warmUp(load: LoadFn): void;
}

/**
 * Sets the context up: `exchange` and `word` as above; `selfUrl`, the URL
 * of our own code, left out of messages; `load`, the loader to patch for
 * stdout routing (undefined while Deno's is still coming: the plain patch
 * is used then).
 */
export function contextKernel(exchange: (request: string) => string, word: WordOp, selfUrl: string, load: LoadFn | undefined): ContextKernel {
  const INTERRUPT = 1;
  const GROUP_COUNT = 4;
  const SPAWNING = 6;
  const GROUP_FIRST = 7;
  const GROUP_SLOTS = 1017;
  /** What a `ctx` call throws once the host stopped serving this context (it is being ended). */
  const INTERRUPTED = "the call was interrupted";

  /** Deno cannot end a worker blocked in Atomics.wait: its contexts differ in a few ways (see routeConsole). */
  const CAN_PARK = !("Deno" in globalThis);

  // Our own references: a module loaded in a discovery lane may replace the globals.
  const toJson = JSON.stringify;
  const fromJson = JSON.parse;
  const keysOf = Object.keys;
  const ownKeys = Reflect.ownKeys;
  const describeOwn = Reflect.getOwnPropertyDescriptor;
  const protoOf = Object.getPrototypeOf;
  const isExtensible = Object.isExtensible;
  const sameValue = Object.is;
  /** Id of the module compiled by warmUp; no file has it. */
  const WARM_UP_ID = "/rienda-warm-up.js";
  type Members = ReturnType<typeof createMembers>;
  type Context = ReturnType<typeof createContext>;
  type Reply = CallReply;
  type Send = (message: unknown) => void;


  /** What `process.abort()` throws in a context. */
  const ABORT_REFUSED = "process.abort() would end Rienda itself, not only this call; throw an Error to fail the call";

  /**
   * A worker's `process.exit` ends only the worker, but `process.abort()`
   * ends the whole process: Rienda, the run and every other call with it.
   * A tool or hook may fail its own call, never the run (tools.md, hooks.md),
   * so in a context `process.abort()` throws instead, which fails the call
   * like any throw (at load time: the module does not load). Also reached
   * through `require("node:process")`, which hands out the same object.
   */
  function containAbort(): void {
    const proc = (globalThis as { process?: object }).process;
    if (!proc) return;
    try {
      Object.defineProperty(proc, "abort", {
        configurable: true,
        enumerable: true,
        writable: true,
        value: function abort(): never {
          throw new Error(ABORT_REFUSED);
        },
      });
    } catch {
      // A runtime whose process.abort cannot be replaced keeps its own.
    }
  }

  /** Loads the module and calls the export (or looks at it); the reply says how that went. */
  function run(init: CallMessage, load: LoadFn): Reply {
    const ctx = init.mode === "invoke" ? (init.data ? createContext(init.data, members) : prepared) : undefined;
    if (init.mode === "invoke" && !ctx) return { kind: "threw", message: "the context received no ctx data (internal error)" };
    if (ctx) consoleSink = ctx.log;
    hostServes = ctx !== undefined;
    let mod: unknown;
    try {
      mod = load(init.modulePath);
    } catch (error) {
      return { kind: "load-failed", message: describeLoadError(error) };
    }
    if (!ctx) return { kind: "inspected", shape: shapeOf(mod) };
    const exportName = init.exportName ?? "";
    const target = mod !== null && (typeof mod === "object" || typeof mod === "function") ? (mod as Record<string, unknown>)[exportName] : undefined;
    if (typeof target !== "function") return { kind: "load-failed", message: `the module does not export a function "${exportName}"` };
    let value: unknown;
    try {
      value = (target as (...args: unknown[]) => unknown).call(mod, ctx, ...(init.args ?? []));
    } catch (error) {
      return { kind: "threw", message: describeThrown(error) };
    }
    return { kind: "returned", value, type: describeType(value) };
  }

  function post(reply: Reply, send: Send): void {
    if (reply.kind !== "returned") {
      send(reply);
      return;
    }
    try {
      send(reply);
      return;
    } catch {
      // Not structured-cloneable (a function or a symbol inside, a Promise): fall back to what JSON can carry.
    }
    send({ ...reply, value: reply.type === "a Promise" ? undefined : jsonCopy(reply.value) });
  }

  /**
   * An object or array with each own field that JSON can carry, the others
   * (functions, symbols, a BigInt, a cycle, a getter that throws) left out:
   * `{ text: "ok", helper() {}, n: 1n }` still answers with its text, where a
   * copy of the whole would have failed and made it look like no answer at
   * all. Anything else cannot be copied: undefined, its type still says what
   * it was.
   */
  function jsonCopy(value: unknown): unknown {
    if (value === null || typeof value !== "object") return undefined;
    const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
    for (const key of Object.keys(value)) {
      try {
        const field = toJson((value as Record<string, unknown>)[key]);
        if (field !== undefined) (copy as Record<string, unknown>)[key] = fromJson(field);
      } catch {
        // This field cannot be carried; the others still are.
      }
    }
    return copy;
  }

  /**
   * A fresh engine runs each function slowly the first time (it compiles it
   * then; measured: 0.2 ms for `run`, 0.3 ms more for the first CommonJS
   * module). A spare does a dry run of the whole call path on a module of our
   * own, compiled from a string, so the caller does not wait for that. No
   * file is read and no user code runs.
   */
  function warmUp(load: LoadFn): void {
    let warmModule: unknown = { execute: (ctx: unknown, args: unknown) => String(args) };
    try {
      const Module = load("node:module") as new (id: string) => { exports: unknown; _compile(source: string, filename: string): void };
      const compiled = new Module(WARM_UP_ID);
      compiled._compile("module.exports = { execute(ctx, args) { return String(args); } };", WARM_UP_ID);
      warmModule = compiled.exports;
    } catch {
      // Only a warm-up: a runtime without Module#_compile is a little slower.
    }
    // Shaped like real data only as far as the call path looks at it.
    const data = { workdir: "", session: null, agent: null, config: { a: [1, "b", null, true, { c: 2 }] } } as unknown as ContextData;
    const dry = (mode: CallMessage["mode"], loadDry: LoadFn) =>
      post(run({ kind: "call", mode, modulePath: WARM_UP_ID, exportName: "execute", args: [{}], data }, loadDry), () => {});
    dry("invoke", () => warmModule);
    dry("inspect", () => warmModule);
    dry("invoke", () => ({ execute: () => { throw new Error("warm-up"); } }));
    dry("invoke", () => { throw new Error("warm-up"); });
    for (const value of [undefined, null, "", 1, true, [], data, warmUp]) describeType(value);
    consoleSink = () => {};
    hostServes = false;
  }


  /**
   * A discovery lane: loads its modules one after another, in one go (no
   * timer or promise callback of a module runs before the next loads), and
   * reports each as it is done, so the host knows which one is loading. A
   * module must not change how the next is seen: see WorldGuard.
   */
  function inspectList(message: InspectListMessage, load: LoadFn, send: (message: ListReply) => void): void {
    // Preparing hands out `process` behind a proxy and patches the loader:
    // the world is recorded after that, or the first module would seem to
    // have changed it.
    const paths = message.modulePaths;
    const guard = paths.length > 1 ? createWorldGuard(load) : undefined;
    for (let i = 0; i < paths.length; i++) {
      if (guard && i > 0) {
        if (message.compareEach && guard.changed()) {
          send({ kind: "tainted", index: i });
          return;
        }
        guard.forgetLoadedFiles();
      }
      const reply = run({ kind: "call", mode: "inspect", modulePath: paths[i]! }, load);
      send(
        (reply.kind === "inspected" ? { kind: "inspected", index: i, shape: reply.shape } : { kind: "load-failed", index: i, message: "message" in reply ? reply.message : "the module did not load" }) satisfies ListReply,
      );
    }
    send({ kind: "listed", changed: guard !== undefined && !message.compareEach && guard.changed() });
  }


  /**
   * A discovery lane loads several modules in one worker (a worker per module
   * would cost 20 boots for 20 tools). So that one module's load cannot change
   * how the next one is seen, the lane records, before its first module, the
   * own properties (values, accessors), prototype and extensibility of what a
   * module could patch to affect another: the names on the global object
   * (any global added or removed), which value the standard built-ins and a
   * few others (`fetch`, timers, `require`, `process`, ...) hold, the
   * members of the standard built-ins and of their prototypes (CORE_GLOBALS),
   * the hidden intrinsics (iterator, generator,
   * async function and typed array prototypes), `process.env` and the common
   * members of `process`, the CommonJS loader (`require`, `Module`,
   * `Module.prototype`, the extensions tables) and each `node:` built-in as it
   * is first handed out. The lane compares after its last module (a module
   * that changes any of this is rare, and comparing costs 0.2-1.6 ms); when
   * something changed, the host has every module after the first looked at
   * again, comparing before each, and a difference then ends the lane's
   * worker: that module loads in a fresh one. Files a module loaded are dropped from `require.cache` before the next
   * one, so two tools sharing a file each get their own copy. Not watched,
   * because reading them costs milliseconds per lane (measured: all globals'
   * members 7-22 ms): the value of other globals, the members of the web
   * classes (`Request`, ...), of `Bun` and `console`, the rest of `process`,
   * and objects further away.
   */
  interface WorldGuard {
    changed(): boolean;
    forgetLoadedFiles(): void;
  }

  type Print = unknown[];

  /** Members of process worth watching; reading all of them materialises lazy ones (slow). */
  const PROCESS_MEMBERS = ["cwd", "chdir", "exit", "nextTick", "emit", "on", "env", "argv", "execPath", "platform", "version", "versions", "exitCode", "emitWarning", "hrtime", "umask"];
  /** The globals whose members (and whose prototype's members) a lane watches. */
  const CORE_GLOBALS = ["Object", "Function", "Array", "String", "Number", "Boolean", "Promise", "RegExp", "Date", "Error", "Map", "Set", "JSON", "Math", "Reflect"];
  /** Other globals a module may replace: which value they hold is watched, not their members. */
  const OTHER_GLOBALS = ["fetch", "setTimeout", "setInterval", "setImmediate", "clearTimeout", "queueMicrotask", "structuredClone", "require", "process", "console", "Bun", "Deno"];

  function printOf(target: object): Print {
    const out: Print = [protoOf(target), isExtensible(target)];
    let n = out.length;
    const keys = ownKeys(target);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const d = describeOwn(target, key)!;
      out[n++] = key;
      out[n++] = d.value;
      out[n++] = d.get;
      out[n++] = d.set;
      out[n++] = (d.writable ? 1 : 0) | (d.enumerable ? 2 : 0) | (d.configurable ? 4 : 0);
    }
    return out;
  }

  function samePrint(a: Print, b: Print): boolean {
    if (a.length !== b.length) return false;
    // Object.is: NaN (globalThis.NaN, Number.NaN) is the same as itself.
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
    return true;
  }

  const isObject = (value: unknown): value is object => value !== null && (typeof value === "object" || typeof value === "function");

  function dataValue(target: object, key: PropertyKey): unknown {
    const d = describeOwn(target, key);
    return d && "value" in d ? d.value : undefined;
  }

  function createWorldGuard(load: LoadFn): WorldGuard {
    // Plain arrays and index loops: the checks must not go through anything a module can patch.
    const targets: object[] = [];
    const prints: Print[] = [];
    const known = new WeakSet<object>();
    const watch = (target: unknown) => {
      if (!isObject(target) || known.has(target)) return;
      known.add(target);
      targets[targets.length] = target;
      prints[prints.length] = printOf(target);
    };
    const watchWithPrototype = (target: unknown) => {
      watch(target);
      if (typeof target === "function") watch(dataValue(target, "prototype"));
    };
    // The global object: which names exist, and what the watched ones hold
    // (reading every global's descriptor materialises lazy ones: ~1 ms each time).
    const globalsPrint = (): Print => {
      const out: Print = ownKeys(globalThis);
      let n = out.length;
      for (let i = 0; i < CORE_GLOBALS.length; i++) out[n++] = dataValue(globalThis, CORE_GLOBALS[i]!);
      for (let i = 0; i < OTHER_GLOBALS.length; i++) out[n++] = dataValue(globalThis, OTHER_GLOBALS[i]!);
      return out;
    };
    const globalsBefore = globalsPrint();
    for (let i = 0; i < CORE_GLOBALS.length; i++) watchWithPrototype(dataValue(globalThis, CORE_GLOBALS[i]!));
    const hidden = [
      protoOf([][Symbol.iterator]()),
      protoOf(protoOf([][Symbol.iterator]())),
      protoOf(new Map().entries()),
      protoOf(new Set().values()),
      protoOf(""[Symbol.iterator]()),
      protoOf(/x/[Symbol.matchAll]("")),
      protoOf(function* () {}),
      protoOf(async function () {}),
      protoOf(async function* () {}),
      protoOf(Int8Array),
    ];
    for (const intrinsic of hidden) watchWithPrototype(intrinsic);
    const proc = (globalThis as unknown as { process?: Record<string, unknown> }).process;
    const processPrint = () => (proc ? PROCESS_MEMBERS.map((key) => describeOwn(proc, key)?.value ?? describeOwn(proc, key)?.get) : []);
    const envPrint = () => (proc && isObject(proc.env) ? toJson(proc.env) : "");
    const processBefore = processPrint();
    const envBefore = envPrint();
    const requireFn = (globalThis as { require?: unknown }).require;
    watch(requireFn);
    watch(isObject(requireFn) ? dataValue(requireFn, "extensions") : undefined);
    let cache: Record<string, unknown> | undefined;
    let cachedBefore: string[] = [];
    try {
      const Module = load("node:module") as { prototype: { require: (this: unknown, id: string) => unknown }; _extensions?: unknown; isBuiltin?(id: string): boolean };
      watchWithPrototype(Module);
      watch(Module._extensions);
      // Each node: built-in is watched from the moment it is first handed out, untouched.
      const original = Module.prototype.require;
      const isBuiltin = (id: string) => id.startsWith("node:") || (Module.isBuiltin?.(id) ?? false);
      Module.prototype.require = function (this: unknown, id: string) {
        const exports = original.call(this, id);
        if (typeof id === "string" && isBuiltin(id)) watchWithPrototype(exports);
        return exports;
      };
      prints[targets.indexOf(Module.prototype)] = printOf(Module.prototype);
      cache = isObject(requireFn) ? (dataValue(requireFn, "cache") as Record<string, unknown> | undefined) : undefined;
      cachedBefore = cache ? keysOf(cache) : [];
    } catch {
      // A runtime without node:module: the globals are still watched.
    }
    return {
      changed() {
        if (!samePrint(globalsPrint(), globalsBefore)) return true;
        for (let i = 0; i < targets.length; i++) if (!samePrint(printOf(targets[i]!), prints[i]!)) return true;
        const processNow = processPrint();
        for (let i = 0; i < processNow.length; i++) if (processNow[i] !== processBefore[i]) return true;
        return envPrint() !== envBefore;
      },
      forgetLoadedFiles() {
        if (!cache) return;
        const keys = keysOf(cache);
        for (let i = 0; i < keys.length; i++) if (cachedBefore.indexOf(keys[i]!) < 0) delete cache[keys[i]!];
      },
    };
  }

  function createContext(data: ContextData, m: Members) {
    return {
      workdir: data.workdir,
      session: data.session,
      agent: data.agent,
      config: deepFreeze(data.config),
      ...m,
    };
  }

  type CallHost = (op: string, ...args: unknown[]) => unknown;

  /** The synchronous call to the host, which every `ctx` member uses. */
  function createBridgeCall(): CallHost {
    return function call(op: string, ...args: unknown[]): unknown {
      const answer = exchange(toJson([op, ...args]));
      const kind = answer[0];
      const text = answer.slice(1);
      if (kind === "R") return text === "" ? undefined : fromJson(text);
      if (kind === "I") throw new Error(INTERRUPTED);
      throw kind === "T" ? new TypeError(text) : new Error(text);
    };
  }

  /** The `ctx` functions: they depend on the bridge only, so a spare builds them ahead. */
  function createMembers(call: CallHost) {

    function log(...parts: unknown[]): void {
      call("log", parts.map((p) => (typeof p === "string" ? p : safeString(p))).join(" "));
    }

    return {
      log,
      sleep(ms: unknown): void {
        const n = Number(ms);
        // Waiting on the interrupt word lets an interrupt end the sleep early.
        if (n > 0) word("wait", INTERRUPT, 0, n);
      },
      confirm: (prompt: unknown): boolean => call("confirm", prompt) === true,
      notify: (prompt: unknown): void => void call("notify", prompt),
      file: {
        read: (path: unknown, opts?: unknown) => call("file.read", path, opts) as string,
        write: (path: unknown, content: unknown, opts?: unknown) => void call("file.write", path, content, opts),
        exists: (path: unknown) => call("file.exists", path) as boolean,
        list: (path?: unknown, opts?: unknown) => call("file.list", path, opts),
      },
      env: {
        get: (name: unknown) => call("env.get", name) as string | null,
      },
      http: {
        fetch: (url: unknown, opts?: unknown) => call("http.fetch", url, opts),
      },
      system: {
        exec: (command: unknown, opts?: unknown) => call("system.exec", command, opts),
        which: (name: unknown) => call("system.which", name) as string | null,
      },
    };
  }

  /**
   * console output of a module would land on our stdout; send it to the front
   * end instead. The same for `process.stdout.write` / `process.stderr.write`
   * (a worker's streams are the process's own file descriptors): a tool, or a
   * package it uses, writing there would otherwise corrupt the answer a
   * script captures and the `--json` stream.
   *
   * Bun creates `process.stdout` on first use, and that loads `node:stream`:
   * 7 ms of a worker's 9 ms boot (measured, bench/fresh-worker-phases.bench.ts).
   * Any look at that property, even `hasOwnProperty` or redefining it, pays
   * it. So under Bun `process` is handed out behind a proxy that patches a
   * stream when a module first reads it; `require("process")` and
   * `require("node:process")` give the same proxy. Deno keeps the plain
   * patch (its streams cost nothing like that).
   */
  function routeConsole(log: (...parts: unknown[]) => void, load: LoadFn | undefined): void {
    const c = console as unknown as Record<string, unknown>;
    for (const name of ["log", "info", "warn", "error", "debug", "trace"]) c[name] = log;
    const proc = (globalThis as { process?: object }).process;
    if (!proc) return;
    if (CAN_PARK && load && routeThroughProxy(proc, log, load)) return;
    for (const name of ["stdout", "stderr"]) {
      const own = Object.getOwnPropertyDescriptor(proc, name);
      const found = own ?? Object.getOwnPropertyDescriptor(Object.getPrototypeOf(proc) as object, name);
      if (!found || (own && !own.configurable)) continue;
      let stream: { write?: unknown } | undefined;
      Object.defineProperty(proc, name, {
        configurable: true,
        enumerable: found.enumerable ?? true,
        get() {
          if (stream === undefined) {
            stream = (found.get ? found.get.call(proc) : found.value) as { write?: unknown } | undefined;
            if (stream) stream.write = streamWriter(log);
          }
          return stream;
        },
      });
    }
  }

  /** See routeConsole. False when the loader cannot be patched (then the plain patch is used). */
  function routeThroughProxy(proc: object, log: (...parts: unknown[]) => void, load: LoadFn): boolean {
    let Module: { prototype: { require: (this: unknown, id: string) => unknown } };
    try {
      Module = load("node:module") as typeof Module;
    } catch {
      return false;
    }
    const original = Module.prototype.require;
    if (typeof original !== "function") return false;
    const patched = new Set<unknown>();
    const routed = (key: PropertyKey) => {
      // Read on the real object: its getters expect it as `this`.
      const value = Reflect.get(proc, key) as { write?: unknown } | undefined;
      if (value && !patched.has(value)) {
        patched.add(value);
        value.write = streamWriter(log);
      }
      return value;
    };
    const isStream = (key: PropertyKey) => key === "stdout" || key === "stderr";
    const wrapped = new Proxy(proc, {
      get: (target, key) => (isStream(key) ? routed(key) : Reflect.get(target, key)),
      // Setters of process (exitCode, title) expect the real object as `this`.
      set: (target, key, value) => Reflect.set(target, key, value),
      getOwnPropertyDescriptor(target, key) {
        if (isStream(key)) routed(key);
        return Reflect.getOwnPropertyDescriptor(target, key);
      },
    });
    Object.defineProperty(globalThis, "process", { value: wrapped, configurable: true, writable: true, enumerable: true });
    const routedFs = new WeakSet<object>();
    const routeFs = (id: unknown, exports: unknown) => {
      if ((id === "fs" || id === "node:fs") && exports !== null && typeof exports === "object" && !routedFs.has(exports)) {
        routedFs.add(exports);
        routeStdoutWrites(exports as Record<string, unknown>, log);
      }
      return exports;
    };
    Module.prototype.require = function (this: unknown, id: string) {
      if (id === "process" || id === "node:process") return wrapped;
      // Called as before (arguments and all), so errors and require stacks stay the loader's.
      return routeFs(id, original.apply(this, arguments as unknown as [string]));
    };
    // process.getBuiltinModule("node:process") is a way to the real object too (and to fs).
    const real = proc as { getBuiltinModule?: (id: string) => unknown };
    const getBuiltin = real.getBuiltinModule;
    if (typeof getBuiltin === "function") {
      real.getBuiltinModule = function getBuiltinModule(this: unknown, id: string) {
        if (id === "process" || id === "node:process") return wrapped;
        return routeFs(id, getBuiltin.apply(proc, arguments as unknown as [string]));
      };
    }
    return true;
  }

  /**
   * `fs` writes to descriptor 1 (`fs.writeSync(1, …)`, `fs.writeFileSync(1,
   * …)`, and their async and appending kin) go to the log too: the process's
   * stdout carries a run's answer or its JSON events, which a script reads
   * byte for byte. Patched on the worker's own `fs` (each worker has its
   * own), the first time a module requires it: loading `fs` at boot would
   * cost every worker 1.5 ms. Other descriptors are left alone.
   */
  function routeStdoutWrites(fs: Record<string, unknown>, log: (text: string) => void): void {
    const decoder = new TextDecoder();
    const textOf = (data: unknown, offset?: unknown, length?: unknown): string => {
      if (typeof data === "string") return data;
      if (data instanceof Uint8Array) {
        const start = typeof offset === "number" ? offset : 0;
        const end = typeof length === "number" ? start + length : data.length;
        return decoder.decode(data.subarray(start, end));
      }
      if (ArrayBuffer.isView(data)) return decoder.decode(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      return String(data);
    };
    const emit = (text: string): number => {
      if (text !== "") log(text.endsWith("\n") ? text.slice(0, -1) : text);
      return new TextEncoder().encode(text).length;
    };
    const wrap = (name: string, handle: (args: unknown[]) => unknown) => {
      const real = fs[name];
      if (typeof real !== "function") return;
      fs[name] = function (this: unknown, ...args: unknown[]) {
        return args[0] === 1 ? handle(args) : (real as (...a: unknown[]) => unknown).apply(this, args);
      };
    };
    const later = (args: unknown[], ...result: unknown[]) => {
      const callback = args.findLast((a) => typeof a === "function") as ((...r: unknown[]) => void) | undefined;
      if (callback) queueMicrotask(() => callback(null, ...result));
    };
    wrap("writeSync", ([, data, offset, length]) => emit(textOf(data, typeof data === "string" ? undefined : offset, length)));
    wrap("writevSync", ([, buffers]) => emit((buffers as unknown[]).map((b) => textOf(b)).join("")));
    wrap("writeFileSync", ([, data]) => void emit(textOf(data)));
    wrap("appendFileSync", ([, data]) => void emit(textOf(data)));
    wrap("write", (args) => {
      const data = args[1];
      const written = emit(textOf(data, typeof data === "string" ? undefined : args[2], typeof args[3] === "number" ? args[3] : undefined));
      later(args, written, data);
    });
    wrap("writev", (args) => {
      const written = emit((args[1] as unknown[]).map((b) => textOf(b)).join(""));
      later(args, written, args[1]);
    });
    wrap("writeFile", (args) => {
      emit(textOf(args[1]));
      later(args);
    });
    wrap("appendFile", (args) => {
      emit(textOf(args[1]));
      later(args);
    });
  }

  type SpawnFn = (this: unknown, ...args: unknown[]) => unknown;
  type SpawnOptions = Record<string, unknown>;

  /**
   * A process a module starts itself (`node:child_process`'s spawn, exec,
   * execFile, fork and their synchronous forms, all built on Bun's two spawn
   * functions, which they look up on the global `Bun` at each call) must not
   * outlive the call, as for `ctx.system.exec`. So this worker's copy of those
   * two functions is replaced, once, before any module runs (measured: 5 µs;
   * the `Bun` object and its functions belong to this worker alone, so the
   * next call gets them untouched, and a discovery lane records the world
   * after this):
   * - an asynchronous spawn starts the child as the leader of a process group
   *   of its own (`detached`), and records the group in the bridge buffer's
   *   table; the host ends the recorded groups when the call ends or is
   *   interrupted, and does not end the worker while it is between starting
   *   a child and recording it (context-processes.ts);
   * - a synchronous one is run by the host while this worker waits in
   *   `Atomics.wait` (host-spawn-sync.ts): blocked in the native spawn, the
   *   worker could not be ended, and the child would outlive the interrupt.
   *   While a module is only looked at (discovery) nothing serves the bridge,
   *   so there it runs here, as before.
   * A caller asking for `detached: true` leaves on purpose, like `setsid`:
   * left alone. Elsewhere than Bun (Deno), and on Windows (no process groups),
   * nothing is replaced.
   */
  function superviseSpawns(call: CallHost): void {
    const runtime = (globalThis as { Bun?: { spawn?: SpawnFn; spawnSync?: SpawnFn } }).Bun;
    const platform = (globalThis as { process?: { platform?: string } }).process?.platform;
    if (!runtime || platform === "win32") return;
    const spawnAsync = runtime.spawn;
    const spawnSync = runtime.spawnSync;
    if (typeof spawnAsync !== "function" || typeof spawnSync !== "function") return;

    runtime.spawn = function spawn(this: unknown, first: unknown, second?: unknown): unknown {
      const options = awayFromStdout(spawnOptions(first, second));
      if (options?.detached === true) return Array.isArray(first) ? spawnAsync.call(this, first, options) : spawnAsync.call(this, options);
      const recorded = word("load", GROUP_COUNT, 0, 0);
      if (recorded >= GROUP_SLOTS) {
        throw new Error(`this call has started ${GROUP_SLOTS} processes, which end with it, and cannot start more: run commands with ctx.system.exec, or pass detached: true for a process that must outlive the call`);
      }
      const own = { ...options, detached: true };
      // Ending this worker between the start of the child and its record would
      // lose the child: the host waits while SPAWNING is set, and sets
      // INTERRUPT before it looks. Each side writes, then reads the other's
      // word, so at least one of them sees the other.
      word("store", SPAWNING, 1, 0);
      try {
        if (word("load", INTERRUPT, 0, 0) !== 0) throw new Error(INTERRUPTED);
        const child = (Array.isArray(first) ? spawnAsync.call(this, first, own) : spawnAsync.call(this, own)) as { pid?: unknown };
        const pid = child.pid;
        if (typeof pid === "number" && pid > 1) {
          word("store", GROUP_FIRST + recorded, pid, 0);
          word("store", GROUP_COUNT, recorded + 1, 0);
        }
        return child;
      } finally {
        word("store", SPAWNING, 0, 0);
        word("notify", SPAWNING, 0, 0);
      }
    };

    runtime.spawnSync = function spawnSyncThroughHost(this: unknown, first: unknown, second?: unknown): unknown {
      const options = awayFromStdout(spawnOptions(first, second));
      const request = hostServes && options?.detached !== true ? syncSpawnRequest(Array.isArray(first) ? first : options?.cmd, options ?? {}) : undefined;
      if (!request) {
        if (!options) return spawnSync.apply(this, arguments as unknown as unknown[]);
        return Array.isArray(first) ? spawnSync.call(this, first, options) : spawnSync.call(this, options);
      }
      const answer = call("child.spawnSync", request) as SyncSpawnAnswer;
      if ("error" in answer) {
        const { message, ...fields } = answer.error;
        throw Object.assign(new Error(message), fields);
      }
      const bytes = (text: string | null) => (text === null ? undefined : Buffer.from(text, "base64"));
      return {
        pid: answer.pid,
        exitCode: answer.exitCode,
        signalCode: answer.signalCode ?? undefined,
        stdout: bytes(answer.stdout),
        stderr: bytes(answer.stderr),
        success: answer.exitCode === 0,
        exitedDueToTimeout: answer.exitedDueToTimeout || undefined,
        exitedDueToMaxBuffer: answer.exitedDueToMaxBuffer || undefined,
      };
    };
  }

  /**
   * The options with every stream of the child that would be this process's
   * stdout (`stdio: "inherit"`, `[…, "inherit", …]`, descriptor 1) sent to
   * its stderr instead: stdout carries a run's answer, its JSON events or an
   * MCP server's messages, byte for byte, and a command a tool runs with its
   * output inherited (`execSync("npm test", { stdio: "inherit" })`) must not
   * write into them. On stderr it reads as any live output does.
   */
  function awayFromStdout(options: SpawnOptions | undefined): SpawnOptions | undefined {
    if (!options) return options;
    const away = (value: unknown, index: number) => (value === 1 || (index === 1 && value === "inherit") ? 2 : value);
    let out = options;
    const stdio = options.stdio;
    if (Array.isArray(stdio)) {
      const moved = stdio.map((value, i) => (i === 0 ? value : away(value, i)));
      if (moved.some((value, i) => value !== stdio[i])) out = { ...out, stdio: moved };
    }
    if (away(options.stdout, 1) !== options.stdout) out = { ...out, stdout: 2 };
    if (options.stderr === 1) out = { ...out, stderr: 2 };
    return out;
  }

  /** The options of a spawn called as `(cmd[], options?)` or `(options)`. */
  function spawnOptions(first: unknown, second: unknown): SpawnOptions | undefined {
    const options = Array.isArray(first) ? second : first;
    return options !== null && typeof options === "object" ? (options as SpawnOptions) : undefined;
  }

  /** Options of a synchronous spawn the host knows how to run it with. */
  const HOST_SPAWN_OPTIONS = ["cmd", "cwd", "env", "stdio", "stdin", "stdout", "stderr", "detached", "argv0", "timeout", "killSignal", "maxBuffer", "uid", "gid", "windowsHide", "windowsVerbatimArguments"];

  /**
   * The options of a synchronous spawn as the host runs it (host-spawn-sync.ts),
   * or undefined when something in them cannot travel as JSON (a stream, a
   * Blob, an option the host does not know): that spawn then runs here.
   */
  function syncSpawnRequest(cmd: unknown, options: SpawnOptions): SyncSpawnRequest | undefined {
    if (!Array.isArray(cmd) || cmd.length === 0) return undefined;
    const argv: string[] = [];
    for (let i = 0; i < cmd.length; i++) {
      if (typeof cmd[i] !== "string") return undefined;
      argv[i] = cmd[i] as string;
    }
    for (const key of Object.keys(options)) if (options[key] !== undefined && !HOST_SPAWN_OPTIONS.includes(key)) return undefined;
    const given = Array.isArray(options.stdio) ? (options.stdio as unknown[]) : [options.stdin ?? "ignore", options.stdout ?? "pipe", options.stderr ?? "pipe"];
    // Bun's defaults for the streams a short list leaves out are its own business.
    if (given.length < 3) return undefined;
    const stdio: StdioSpec[] = [];
    for (let i = 0; i < Math.max(3, given.length); i++) {
      const spec = stdioSpec(given[i], i);
      if (spec === undefined) return undefined;
      if (i < 3) stdio[i] = spec;
      // A fourth stream or more: only nothing at all can be left out.
      else if (spec !== "ignore") return undefined;
    }
    const proc = (globalThis as { process?: { env?: Record<string, unknown>; cwd?(): string } }).process;
    const envGiven = (options.env ?? proc?.env ?? {}) as Record<string, unknown>;
    const env: Record<string, string> = {};
    for (const name of Object.keys(envGiven)) if (envGiven[name] !== undefined) env[name] = String(envGiven[name]);
    const request: SyncSpawnRequest = { cmd: argv, cwd: typeof options.cwd === "string" && options.cwd !== "" ? options.cwd : (proc?.cwd?.() ?? "."), env, stdio };
    if (typeof options.argv0 === "string") request.argv0 = options.argv0;
    for (const key of ["timeout", "maxBuffer", "uid", "gid"] as const) {
      const value = options[key];
      // Infinity (no limit) has no JSON form: no limit is what leaving it out means.
      if (typeof value === "number" && Number.isFinite(value)) request[key] = value;
    }
    if (typeof options.killSignal === "string" || typeof options.killSignal === "number") request.killSignal = options.killSignal;
    return request;
  }

  function stdioSpec(value: unknown, index: number): StdioSpec | undefined {
    if (value === undefined || value === null || value === "ignore") return "ignore";
    if (value === "pipe" || value === "inherit") return value;
    if (typeof value === "number") return Number.isInteger(value) && value >= 0 ? value : undefined;
    if (index === 0 && ArrayBuffer.isView(value)) {
      return { input: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64") };
    }
    return undefined;
  }

  /** A `write(chunk, [encoding], [callback])` that hands the text to `log`, one line break at the end dropped (log lines get their own). */
  function streamWriter(log: (text: string) => void): (...args: unknown[]) => boolean {
    const decoder = new TextDecoder();
    return (chunk: unknown, ...rest: unknown[]) => {
      const text = typeof chunk === "string" ? chunk : chunk instanceof Uint8Array ? decoder.decode(chunk) : String(chunk);
      if (text !== "") log(text.endsWith("\n") ? text.slice(0, -1) : text);
      const callback = rest.find((r) => typeof r === "function") as (() => void) | undefined;
      callback?.();
      return true;
    };
  }

  function shapeOf(mod: unknown): ModuleShape {
    const members: ModuleShape["members"] = {};
    if (mod !== null && (typeof mod === "object" || typeof mod === "function")) {
      // Index loops: a module may have replaced the iterators for-of uses.
      const keys = keysOf(mod as object);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!;
        const value = (mod as Record<string, unknown>)[key];
        const member: MemberShape = { type: describeType(value) };
        if (typeof value === "function") {
          // Told apart here, where the function is: the host sees only this description.
          const kind = (value as { constructor?: { name?: string } }).constructor?.name;
          if (kind === "AsyncFunction" || kind === "AsyncGeneratorFunction") member.async = true;
          else if (PROMISE_WORDS.test(functionSource(value))) member.usesPromises = true;
        } else {
          try {
            member.value = fromJson(toJson(value) ?? "null");
          } catch {
            // Not JSON-able (cycles, bigint): the type alone tells what is wrong.
          }
        }
        members[key] = member;
      }
    }
    return { type: describeType(mod), members };
  }

  // Signs in a function's source that it counts on promises settling.
  const PROMISE_WORDS = /\bPromise\b|\.then\s*\(|\bawait\b/;

  function functionSource(fn: unknown): string {
    try {
      return Function.prototype.toString.call(fn);
    } catch {
      return "";
    }
  }

  function describeType(value: unknown): string {
    if (value === undefined) return "undefined";
    if (value === null) return "null";
    if (Array.isArray(value)) return "an array";
    if (typeof value === "object" && typeof (value as { then?: unknown }).then === "function") return "a Promise";
    switch (typeof value) {
      case "string":
        return "a string";
      case "number":
        return "a number";
      case "boolean":
        return "a boolean";
      case "bigint":
        return "a bigint";
      case "symbol":
        return "a symbol";
      case "function":
        return "a function";
      default:
        return "an object";
    }
  }

  function describeLoadError(error: unknown): string {
    const e = error as { name?: string; message?: string; errors?: unknown[]; position?: { line?: number; column?: number; file?: string } } | null;
    // Bun reports several syntax errors of one file as an AggregateError of BuildMessages.
    if (e && Array.isArray(e.errors) && e.errors.length > 0) {
      const more = e.errors.length - 1;
      return describeLoadError(e.errors[0]) + (more > 0 ? ` (and ${more} more error${more > 1 ? "s" : ""})` : "");
    }
    if (e && e.name === "BuildMessage") {
      const where = e.position && e.position.line ? ` (line ${e.position.line}, column ${e.position.column})` : "";
      return `SyntaxError: ${e.message}${where}`;
    }
    if (e && (e as { code?: unknown }).code === "MODULE_NOT_FOUND") return describeMissingModule(e as { message?: string; requireStack?: unknown });
    if (e && e.name === "ResolveMessage") return stripHostPaths(String(e.message));
    return describeThrown(error);
  }

  /**
   * "Cannot find module 'x' (required by /path/of/the/requiring/file.js)": the
   * requiring file decides where the lookup went (its folder's node_modules,
   * then those above), which discovery and `rienda doctor` report.
   */
  function describeMissingModule(e: { message?: string; requireStack?: unknown }): string {
    const first = stripHostPaths(String(e.message ?? "")).split("\n")[0]!;
    const requirer = Array.isArray(e.requireStack) ? e.requireStack[0] : undefined;
    if (typeof requirer !== "string" || stripHostPaths(requirer) !== requirer) return first;
    return `${first} (required by ${requirer})`;
  }

  function describeThrown(error: unknown): string {
    if (error instanceof Error || (error !== null && typeof error === "object" && typeof (error as Error).message === "string")) {
      const e = error as Error;
      const name = typeof e.name === "string" && e.name !== "Error" && e.name !== "" ? `${e.name}: ` : "";
      return stripHostPaths(name + e.message);
    }
    if (typeof error === "string") return stripHostPaths(error);
    return stripHostPaths(safeString(error));
  }

  /** Our own file paths (the worker, the embedded bundle) mean nothing to a user. */
  function stripHostPaths(text: string): string {
    const self = selfUrl;
    const selfPath = self.startsWith("file://") ? decodeURIComponent(new URL(self).pathname) : self;
    return text
      .replace(/\nRequire stack:(\n- [^\n]*)+/g, "")
      .split(self)
      .join("<rienda>")
      .split(selfPath)
      .join("<rienda>")
      .replace(/\/\$bunfs\/[^\s'")]*/g, "<rienda>")
      .replace(/B:\/~BUN\/[^\s'")]*/g, "<rienda>");
  }

  function safeString(value: unknown): string {
    if (typeof value === "string") return value;
    try {
      const json = JSON.stringify(value);
      if (json !== undefined) return json;
    } catch {
      // cycles or bigint: fall through
    }
    return String(value);
  }

  function deepFreeze<T>(value: T): T {
    if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
      Object.freeze(value);
      for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    }
    return value;
  }

  // Set up last: every declaration above is initialised by now.
  const call = createBridgeCall();
  const members: Members = createMembers(call);
  /** The `ctx` built ahead from the expected data; no code has seen it yet. */
  let prepared: Context | undefined;
  /** Whether the host serves the bridge: during a call, not while a module is only looked at (no ctx). */
  let hostServes = false;
  // Where console output goes: nowhere while inspecting, ctx.log while invoking.
  let consoleSink: (...parts: unknown[]) => void = () => {};

  // Before any module runs, so every route to a spawn (require, an ES import, Bun's own) finds it done.
  superviseSpawns(call);
  // Deno's process.env is the process's own environment, shared by every
  // worker: a module setting a variable would change it for the next call
  // (and for the commands Rienda starts). Each context gets a copy.
  if (!CAN_PARK) {
    const proc = (globalThis as { process?: { env?: unknown } }).process;
    if (proc && proc.env) proc.env = { ...(proc.env as Record<string, string>) };
  }
  // Before any module runs, and on the real process object (routeConsole may put a proxy in front of it).
  containAbort();
  // Module code may print at load time too: to the front end, never to our stdout.
  routeConsole((...parts) => consoleSink(...parts), load);

  return {
    expect(data) {
      prepared = createContext(data, members);
    },
    run,
    deliver: post,
    inspectList,
    warmUp,
  };
}
