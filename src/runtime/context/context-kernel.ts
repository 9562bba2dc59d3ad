/**
 * Context side: what runs inside every fresh context, a worker
 * (invoke-worker.ts) or a ShadowRealm (realm-helper-worker.ts): the `ctx`
 * members, loading the module and calling its export; with its parts (each
 * in a file of its own) the console and stdout routing (route-output.ts),
 * the supervision of processes a module starts (supervise-spawns.ts),
 * describing what came of a call (describe.ts) and a discovery lane's world
 * guard (world-guard.ts).
 *
 * `contextKernel` and each part refer to nothing outside themselves (types
 * aside, erased at build): a realm evaluates them from their source text,
 * joined by kernel-source.ts (checked by test/runtime/context-kernel.test.ts),
 * since only primitives and functions cross a realm's edge. So the context
 * reaches the host only through the two functions it is given:
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
import type { CallMessage, CallReply, InspectListMessage, ListReply } from "../worker-messages.ts";
import type { ContextData } from "../types.ts";
import type { Describe } from "./describe.ts";
import type { CallHost, LoadFn, WordOp } from "./kernel-types.ts";
import type { WorldGuard } from "./world-guard.ts";

export type { CallHost, LoadFn, WordOp, WordOpName } from "./kernel-types.ts";

/**
 * The kernel's parts, each a function that refers to nothing outside itself
 * (kernel-source.ts joins them with the kernel as source for a realm; a
 * worker passes the functions themselves).
 */
export interface KernelParts {
  describing(selfUrl: string): Describe;
  routeOutput(log: (...parts: unknown[]) => void, load: LoadFn | undefined, canPark: boolean): void;
  superviseSpawns(call: CallHost, word: WordOp, hostServes: () => boolean): void;
  createWorldGuard(load: LoadFn): WorldGuard;
}

/** A context's whole life: one call (or one list of modules looked at). */
export interface ContextKernel {
  /** Loads the module and calls the export (or looks at it); the reply says how that went. */
  run(init: CallMessage, load: LoadFn): CallReply;
  /** Sends a reply; one that cannot be copied whole is sent with what JSON can carry. */
  deliver(reply: CallReply, send: (message: unknown) => void): void;
  /** A discovery lane: see inspectList. */
  inspectList(message: InspectListMessage, load: LoadFn, send: (message: ListReply) => void): void;
}

/**
 * Sets the context up: `exchange` and `word` as above; `selfUrl`, the URL
 * of our own code, left out of messages; `load`, the loader to patch for
 * stdout routing (undefined while Deno's is still coming: the plain patch
 * is used then).
 */
export function contextKernel(
  exchange: (request: string) => string,
  word: WordOp,
  selfUrl: string,
  load: LoadFn | undefined,
  parts: KernelParts,
): ContextKernel {
  /** The interrupt word of the bridge layout (bridge-layout.ts; test/runtime/bridge-layout.test.ts keeps it in step). */
  const INTERRUPT = 1;
  /** What a `ctx` call throws once the host stopped serving this context (it is being ended). */
  const INTERRUPTED = "the call was interrupted";

  /** Deno cannot end a worker blocked in Atomics.wait: its contexts differ in a few ways (see route-output.ts). */
  const CAN_PARK = !("Deno" in globalThis);

  // Our own references: a module loaded in a discovery lane may replace the globals.
  const toJson = JSON.stringify;
  const fromJson = JSON.parse;
  const { shapeOf, describeType, describeLoadError, describeThrown, safeString } = parts.describing(selfUrl);
  type Members = ReturnType<typeof createMembers>;
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
    const ctx = init.mode === "invoke" && init.data ? createContext(init.data, members) : undefined;
    if (init.mode === "invoke" && !ctx)
      return { kind: "threw", message: "the context received no ctx data (internal error)" };
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
    // "": the module's export is itself the function (a provider module).
    const target =
      exportName === ""
        ? mod
        : mod !== null && (typeof mod === "object" || typeof mod === "function")
          ? (mod as Record<string, unknown>)[exportName]
          : undefined;
    if (typeof target !== "function") {
      return {
        kind: "load-failed",
        message:
          exportName === ""
            ? `module.exports is not a function (it is ${describeType(mod)})`
            : `the module does not export a function "${exportName}"`,
      };
    }
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
    const guard = paths.length > 1 ? parts.createWorldGuard(load) : undefined;
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
        (reply.kind === "inspected"
          ? { kind: "inspected", index: i, shape: reply.shape }
          : {
              kind: "load-failed",
              index: i,
              message: "message" in reply ? reply.message : "the module did not load",
            }) satisfies ListReply,
      );
    }
    send({ kind: "listed", changed: guard !== undefined && !message.compareEach && guard.changed() });
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

  /** The `ctx` functions: they depend on the bridge only. */
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
      // Files of ~/.rienda the Go Rienda shares; the host checks every argument (host-cache.ts).
      cache: {
        get: (name: unknown) => call("cache.get", name) as string | null,
        has: (name: unknown) => call("cache.has", name) as boolean,
        set: (name: unknown, text: unknown, ttlSeconds?: unknown) =>
          call("cache.set", name, text, ttlSeconds) as string,
      },
      store: {
        get: (name: unknown) => call("store.get", name) as string | null,
        has: (name: unknown) => call("store.has", name) as boolean,
        set: (name: unknown, text: unknown, ttlSeconds?: unknown) => void call("store.set", name, text, ttlSeconds),
        del: (name: unknown) => void call("store.del", name),
      },
      system: {
        exec: (command: unknown, opts?: unknown) => call("system.exec", command, opts),
        which: (name: unknown) => call("system.which", name) as string | null,
      },
    };
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
  /** Whether the host serves the bridge: during a call, not while a module is only looked at (no ctx). */
  let hostServes = false;
  // Where console output goes: nowhere while inspecting, ctx.log while invoking.
  let consoleSink: (...parts: unknown[]) => void = () => {};

  // Before any module runs, so every route to a spawn (require, an ES import, Bun's own) finds it done.
  parts.superviseSpawns(call, word, () => hostServes);
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
  parts.routeOutput((...printed) => consoleSink(...printed), load, CAN_PARK);

  return { run, deliver: post, inspectList };
}
