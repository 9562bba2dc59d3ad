/**
 * Prototype (issue 16): the helper worker of the node:vm realm design. It lives for
 * many calls; each call (and each inspection) gets a new `node:vm` context,
 * i.e. its own global object and built-in prototypes. What the context may
 * reach of this worker (node: built-ins, Buffer, URL, ...) is handed over
 * through a membrane made for that call only: reads go through, writes land
 * in the call's own shadow, and once the call is over every function of the
 * membrane refuses to run (so a promise callback left behind can do
 * nothing). `ctx`, `process` and `console` are built inside the context
 * itself, around one closure that reaches the host: a context cannot climb
 * to this worker's globals from them.
 *
 * Not shipped (the shipped realm design runs ShadowRealms): bench/realm/
 * compares it with both shipped designs.
 */
import vm from "node:vm";
import Module from "node:module";
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { createHelperBridge, CTX_SOURCE, type CallMessage, type HelperRequest } from "./helper-bridge.ts";

const hostRequire = Module.createRequire(import.meta.url);
const isBuiltin = (id: string) => id.startsWith("node:") || Module.isBuiltin(id);
/** Source text of the files modules load: immutable strings, safe to keep across calls. */
const sources = new Map<string, string>();

const bridge = createHelperBridge();
const hostCall = (request: string) => bridge.hostCall(request);
const hostSleep = (ms: number) => bridge.hostSleep(ms);

/** Built inside each context: ctx, process, console and inert timers, around the two host closures. */
const BOOTSTRAP = `(function (hostCall, hostSleep, dataJson, envJson, cwd, platform) {
  const stringify = JSON.stringify, parse = JSON.parse;
  const data = parse(dataJson);
${CTX_SOURCE}
  const ctx = makeCtx(data);
  const console = {};
  for (const name of ["log", "info", "warn", "error", "debug", "trace"]) console[name] = log;
  class ProcessExit extends Error {}
  const process = {
    env: JSON.parse(envJson), platform, argv: ["rienda"], versions: {}, version: "",
    cwd: function cwd() { return cwd_; }, exit(code) { throw new ProcessExit(String(code ?? 0)); },
    nextTick() {}, on() { return process; }, emit() { return false; },
  };
  const cwd_ = cwd;
  const inert = () => 0;
  Object.assign(globalThis, { console, process, setTimeout: inert, setInterval: inert, setImmediate: inert, clearTimeout: inert, clearInterval: inert, queueMicrotask: inert });
  return { ctx, ProcessExit };
})`;

interface Membrane {
  wrap(value: unknown): unknown;
  end(): void;
}

/** One call's view of this worker's objects: reads pass, writes stay in the call, nothing runs after it. */
function createMembrane(): Membrane {
  let alive = true;
  const proxies = new WeakMap<object, object>();
  const targets = new WeakMap<object, object>();
  const inbound = new WeakMap<object, unknown>();
  const refuse = () => {
    throw new Error("the call is over");
  };
  const unwrap = (value: unknown): unknown => {
    if (value === null || (typeof value !== "object" && typeof value !== "function")) return value;
    const target = targets.get(value as object);
    if (target) return target;
    if (typeof value === "function") {
      // A function of the context handed to the host (a callback): it runs only while the call does.
      let gated = inbound.get(value);
      if (!gated) {
        const fn = value as (...a: unknown[]) => unknown;
        gated = function (this: unknown, ...args: unknown[]) {
          if (!alive) return undefined;
          return unwrap(fn.apply(wrap(this), args.map(wrap)));
        };
        inbound.set(value, gated);
      }
      return gated;
    }
    return value;
  };
  const wrap = (value: unknown): unknown => {
    if (value === null || (typeof value !== "object" && typeof value !== "function")) return value;
    const known = proxies.get(value as object);
    if (known) return known;
    if (targets.has(value as object)) return value;
    const shadow = new Map<PropertyKey, PropertyDescriptor | undefined>();
    const real = value as object;
    // The proxy stands on an empty stand-in, not on the real object: the
    // invariants of a Proxy tie it to its target's non-configurable members,
    // which would force handing the real (shared) values out.
    const standIn: object = Array.isArray(real) ? [] : typeof real === "function" ? function () {}.bind(null) : {};
    const descriptorOf = (key: PropertyKey): PropertyDescriptor | undefined => {
      if (shadow.has(key)) return shadow.get(key);
      const own = Reflect.getOwnPropertyDescriptor(real, key);
      if (!own) return undefined;
      const wrapped: PropertyDescriptor = { enumerable: own.enumerable, configurable: true };
      if ("value" in own) Object.assign(wrapped, { value: wrap(own.value), writable: true });
      else Object.assign(wrapped, { get: wrap(own.get) as () => unknown, set: wrap(own.set) as (v: unknown) => void });
      return wrapped;
    };
    const proxy: object = new Proxy(standIn, {
      get(_, key) {
        if (shadow.has(key)) {
          const d = shadow.get(key);
          return d ? ("value" in d ? d.value : d.get?.call(proxy)) : undefined;
        }
        if (!Reflect.has(real, key)) return undefined;
        return wrap(Reflect.get(real, key));
      },
      set(_, key, v) {
        shadow.set(key, { value: v, writable: true, enumerable: true, configurable: true });
        return true;
      },
      defineProperty(_, key, descriptor) {
        shadow.set(key, { configurable: true, enumerable: true, ...descriptor });
        return true;
      },
      deleteProperty(_, key) {
        shadow.set(key, undefined);
        return true;
      },
      has(_, key) {
        return shadow.has(key) ? shadow.get(key) !== undefined : Reflect.has(real, key);
      },
      getOwnPropertyDescriptor(target, key) {
        const d = descriptorOf(key);
        if (d && Array.isArray(target) && key === "length") return { ...d, configurable: false };
        return d;
      },
      ownKeys(target) {
        const keys = Reflect.ownKeys(real).filter((k) => !shadow.has(k) || shadow.get(k) !== undefined);
        for (const [k, d] of shadow) if (d && !keys.includes(k as string | symbol)) keys.push(k as string | symbol);
        if (Array.isArray(target) && !keys.includes("length")) keys.push("length");
        return keys;
      },
      getPrototypeOf() {
        return wrap(Reflect.getPrototypeOf(real)) as object | null;
      },
      setPrototypeOf() {
        return false;
      },
      apply(_, thisArg, args) {
        if (!alive) refuse();
        try {
          return wrap(Reflect.apply(real as (...a: unknown[]) => unknown, unwrap(thisArg), args.map(unwrap)));
        } catch (error) {
          throw wrap(error);
        }
      },
      construct(_, args, newTarget) {
        if (!alive) refuse();
        try {
          const ctor = real as new (...a: unknown[]) => object;
          const made = Reflect.construct(
            ctor,
            args.map(unwrap),
            newTarget === proxy ? ctor : (unwrap(newTarget) as new (...a: unknown[]) => object),
          );
          return wrap(made) as object;
        } catch (error) {
          throw wrap(error);
        }
      },
    });
    proxies.set(value as object, proxy);
    targets.set(proxy, value as object);
    return proxy;
  };
  return {
    wrap,
    end() {
      alive = false;
    },
  };
}

interface Realm {
  context: vm.Context;
  require(id: string, from: string): unknown;
  ctx: unknown;
  ProcessExit: unknown;
  membrane: Membrane;
}

const WRAPPER_PARAMS = ["exports", "require", "module", "__filename", "__dirname"];

function createRealm(data: unknown): Realm {
  const membrane = createMembrane();
  const context = vm.createContext({});
  const boot = vm.runInContext(BOOTSTRAP, context) as (...a: unknown[]) => { ctx: unknown; ProcessExit: unknown };
  const { ctx, ProcessExit } = boot(
    hostCall,
    hostSleep,
    JSON.stringify(data ?? null),
    JSON.stringify(process.env),
    process.cwd(),
    process.platform,
  );
  const globals = vm.runInContext("globalThis", context) as Record<string, unknown>;
  for (const name of [
    "Buffer",
    "URL",
    "URLSearchParams",
    "TextEncoder",
    "TextDecoder",
    "structuredClone",
    "atob",
    "btoa",
    "AbortController",
    "fetch",
  ]) {
    globals[name] = membrane.wrap((globalThis as Record<string, unknown>)[name]);
  }
  const cache = new Map<string, { exports: unknown }>();
  const newModule = vm.runInContext("(function () { return { exports: {} }; })", context) as () => { exports: unknown };
  const parseJson = vm.runInContext("JSON.parse", context) as (text: string) => unknown;
  const load = (id: string, from: string): unknown => {
    if (isBuiltin(id)) return membrane.wrap(hostRequire(id));
    const file = hostRequire.resolve(id, { paths: [from] });
    if (isBuiltin(file)) return membrane.wrap(hostRequire(file));
    const cached = cache.get(file);
    if (cached) return cached.exports;
    let source = sources.get(file);
    if (source === undefined) {
      source = readFileSync(file, "utf8");
      sources.set(file, source);
    }
    const module = newModule();
    cache.set(file, module);
    if (file.endsWith(".json")) {
      module.exports = parseJson(source);
      return module.exports;
    }
    const dir = dirname(file);
    const fn = vm.compileFunction(source.startsWith("#!") ? "//" + source : source, WRAPPER_PARAMS, {
      parsingContext: context,
      filename: file,
    });
    const localRequire = Object.assign((next: string) => load(next, dir), {
      cache: {},
      resolve: (next: string) => hostRequire.resolve(next, { paths: [dir] }),
    });
    fn.call(module.exports, module.exports, localRequire, module, file, dir);
    return module.exports;
  };
  globals.require = (id: string) => load(id, process.cwd());
  return { context, require: load, ctx, ProcessExit, membrane };
}

function describeType(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object" && typeof (value as { then?: unknown }).then === "function") return "a Promise";
  const t = typeof value;
  return t === "object"
    ? "an object"
    : t === "string" || t === "number" || t === "boolean" || t === "bigint" || t === "symbol" || t === "function"
      ? `a ${t}`
      : "an object";
}

function describeThrown(error: unknown): string {
  const e = error as { name?: unknown; message?: unknown } | null;
  if (e && typeof e === "object" && typeof e.message === "string") {
    const name = typeof e.name === "string" && e.name !== "Error" && e.name !== "" ? `${e.name}: ` : "";
    return name + e.message;
  }
  return String(error);
}

/** What an inspection's context holds as ctx data: nothing runs with it, loading is not calling. */
const NO_DATA = { workdir: "", session: null, agent: null, config: {} };

function run(message: CallMessage): Record<string, unknown> {
  const realm = createRealm(message.data ?? NO_DATA);
  try {
    let mod: unknown;
    try {
      mod = realm.require(message.modulePath, dirname(message.modulePath));
    } catch (error) {
      if (error instanceof (realm.ProcessExit as typeof Error))
        return { kind: "threw", message: `the module ended its context (process.exit(${(error as Error).message}))` };
      return { kind: "load-failed", message: describeThrown(error) };
    }
    if (message.mode === "inspect") {
      const members: Record<string, { type: string; value?: unknown }> = {};
      if (mod !== null && (typeof mod === "object" || typeof mod === "function")) {
        for (const key of Object.keys(mod as object)) {
          const value = (mod as Record<string, unknown>)[key];
          const member: { type: string; value?: unknown } = { type: describeType(value) };
          if (typeof value !== "function") {
            try {
              member.value = JSON.parse(JSON.stringify(value) ?? "null");
            } catch {}
          }
          members[key] = member;
        }
      }
      return { kind: "inspected", shape: { type: describeType(mod), members } };
    }
    const target = (mod as Record<string, unknown> | null)?.[message.exportName ?? ""];
    if (typeof target !== "function")
      return { kind: "load-failed", message: `the module does not export a function "${message.exportName}"` };
    let value: unknown;
    try {
      value = (target as (...a: unknown[]) => unknown).call(mod, realm.ctx, ...(message.args ?? []));
    } catch (error) {
      if (error instanceof (realm.ProcessExit as typeof Error))
        return { kind: "threw", message: `the module ended its context (process.exit(${(error as Error).message}))` };
      return { kind: "threw", message: describeThrown(error) };
    }
    let copy: unknown = value;
    try {
      copy = structuredClone(value);
    } catch {
      try {
        copy = JSON.parse(JSON.stringify(value) ?? "null");
      } catch {
        copy = undefined;
      }
    }
    return { kind: "returned", value: copy, type: describeType(value) };
  } finally {
    realm.membrane.end();
  }
}

// A dry run of the whole path on a module of our own, so the first real call does not pay for compiling it.
function warmUp(): void {
  const context = vm.createContext({});
  vm.compileFunction("module.exports = { execute() { return 'warm'; } };", WRAPPER_PARAMS, { parsingContext: context });
  createRealm(NO_DATA).membrane.end();
}

(globalThis as unknown as { onmessage: (event: MessageEvent) => void }).onmessage = (event: MessageEvent) => {
  const message = event.data as { kind: "init"; buffer: SharedArrayBuffer } | HelperRequest;
  if (message.kind === "inspect-all") {
    // Discovery: every module in a realm of its own, all in one message.
    postMessage({
      kind: "inspected-all",
      replies: message.paths.map((modulePath) => run({ kind: "call", mode: "inspect", modulePath })),
    });
    setImmediate(() => postMessage({ kind: "idle" }));
    return;
  }
  if (message.kind === "init") {
    bridge.attach(message.buffer);
    warmUp();
    postMessage({ kind: "ready" });
    return;
  }
  // The bridge starts over for each call: the state word back to IDLE, no interrupt.
  bridge.reset();
  postMessage(run(message));
  // What the call left in the microtask queue runs now (the membrane refuses
  // its effects); "idle" says it is over. A host that does not hear it soon
  // ends this worker, charging the wait to the call that left the work.
  setImmediate(() => postMessage({ kind: "idle" }));
};

// A promise callback left behind that hits the closed membrane rejects; that is the membrane doing its job.
addEventListener("unhandledrejection", (event: Event) => event.preventDefault());
process.on("unhandledRejection", () => {});
