/**
 * The set-up a ShadowRealm runs before its call: evaluated inside the realm
 * from source text, with the context kernel and the value codec (see
 * realm-helper-worker.ts), so it refers to nothing outside itself.
 *
 * In Bun a ShadowRealm has a whole global of its own: its own intrinsics,
 * `process` (with a copy of the environment), `Buffer`, timers, and its own
 * instances of the `node:` built-ins and module cache. So the kernel sets it
 * up as it sets up a worker, and the module is loaded by the realm's own
 * CommonJS loader. Three things differ from a worker, all handled here:
 * - Bun's `fs` reads (`readFileSync`, `readFile`, `promises.readFile`) hand
 *   out Buffers of the helper's realm, through which a module could reach
 *   objects every later realm shares: the realm's `fs` copies each into a
 *   Buffer of its own (what is shared is frozen besides: freeze-intrinsics.ts);
 * - timers a call leaves behind never fire (the helper never returns to its
 *   event loop), but would hold what they reference until the helper is
 *   replaced: they are cleared when the call ends;
 * - a Worker the module starts (the global one or `worker_threads`') is a
 *   thread of its own, which the end of a worker's call would end with it
 *   but the end of a realm's call would not: each is terminated when the
 *   call ends.
 */
import type { ContextKernel, LoadFn, WordOp } from "./context-kernel.ts";
import type { ValueCodec } from "./context-values.ts";
import type { CallMessage } from "../worker-messages.ts";

/** Runs one call in the realm: the request as codec text; the reply goes to the `reply` given at set-up. */
export type RealmCall = (request: string) => void;

/** Sets a new realm up around the helper's functions; what it returns runs the realm's one call. */
export type RealmSetup = (
  exchange: (request: string) => string,
  word: WordOp,
  reply: (text: string) => void,
  selfUrl: string,
) => RealmCall;

export function realmEntry(
  makeKernel: (
    exchange: (request: string) => string,
    word: WordOp,
    selfUrl: string,
    load: LoadFn | undefined,
  ) => ContextKernel,
  makeCodec: () => ValueCodec,
): RealmSetup {
  return (exchange, word, reply, selfUrl) => {
    const codec = makeCodec();
    const proc = (globalThis as unknown as { process: { getBuiltinModule(id: string): unknown } }).process;
    const getBuiltin = proc.getBuiltinModule;
    type ModuleClass = {
      createRequire(from: string): LoadFn;
      prototype: { require: (this: unknown, id: string) => unknown };
    };
    const Module = getBuiltin.call(proc, "node:module") as ModuleClass;
    // Built-ins straight from the realm's table (createRequire costs milliseconds the first time).
    const load: LoadFn = (path) =>
      path.startsWith("node:") ? getBuiltin.call(proc, path) : Module.createRequire(path)(path);

    const pending = trackTimers();
    const trackThreads = trackWorkers(pending);
    const copyFs = fsBufferCopier();
    onBuiltin(Module, proc, (id, exports) => {
      trackThreads(id, exports);
      copyFs(id, exports);
    });
    const kernel = makeKernel(exchange, word, selfUrl, load);

    return (request) => {
      let message: CallMessage;
      try {
        message = codec.decode(request) as CallMessage;
      } catch {
        reply(codec.encode({ kind: "threw", message: "the call could not be read (internal error)" }));
        return;
      }
      const result = kernel.run(message, load);
      for (let i = 0; i < pending.length; i++) pending[i]!();
      pending.length = 0;
      kernel.deliver(result, (m) => reply(codec.encode(m)));
    };
  };

  /**
   * Calls `patch` with each built-in module as it is handed out, through
   * `require` or `process.getBuiltinModule`, before the module gets it: one
   * wrapper of each for every patch this set-up makes (the kernel adds its
   * own for `process` and stdout).
   */
  function onBuiltin(
    Module: { prototype: { require: (this: unknown, id: string) => unknown } },
    proc: { getBuiltinModule(id: string): unknown },
    patch: (id: unknown, exports: unknown) => void,
  ): void {
    const requireOriginal = Module.prototype.require;
    Module.prototype.require = function (this: unknown, id: string) {
      const exports = requireOriginal.apply(this, arguments as unknown as [string]);
      patch(id, exports);
      return exports;
    };
    const getBuiltin = proc.getBuiltinModule;
    proc.getBuiltinModule = function getBuiltinModule(id: string) {
      const exports = getBuiltin.call(proc, id);
      patch(id, exports);
      return exports;
    };
  }

  /** See the file's comment; the copy is a `Uint8Array` of this realm, as Node's are. Patches `fs` and `fs/promises`. */
  function fsBufferCopier(): (id: unknown, exports: unknown) => void {
    const BufferOf = (globalThis as unknown as { Buffer: { from(bytes: ArrayBufferView): Uint8Array } }).Buffer;
    const OwnBytes = Uint8Array;
    const own = (value: unknown) =>
      value !== null &&
      typeof value === "object" &&
      !(value instanceof OwnBytes) &&
      typeof (value as { byteLength?: unknown }).byteLength === "number"
        ? BufferOf.from(value as ArrayBufferView)
        : value;
    const patched = new WeakSet<object>();
    type Fs = { readFileSync?: unknown; readFile?: unknown; promises?: Fs };
    const patchFs = (fs: unknown): void => {
      if (fs === null || typeof fs !== "object" || patched.has(fs)) return;
      patched.add(fs);
      const f = fs as Record<string, unknown> & Fs;
      const readSync = f.readFileSync;
      if (typeof readSync === "function") {
        f.readFileSync = function readFileSync(this: unknown, ...args: unknown[]) {
          return own(readSync.apply(this, args));
        };
      }
      const read = f.readFile;
      if (typeof read === "function" && f.promises === undefined) {
        // fs/promises: readFile returns a promise.
        f.readFile = function readFile(this: unknown, ...args: unknown[]) {
          return (read.apply(this, args) as Promise<unknown>).then(own);
        };
      } else if (typeof read === "function") {
        f.readFile = function readFile(this: unknown, ...args: unknown[]) {
          const last = args.length - 1;
          const done = args[last];
          if (typeof done === "function") args[last] = (error: unknown, value: unknown) => done(error, own(value));
          return read.apply(this, args);
        };
        patchFs(f.promises);
      }
    };
    return (id, exports) => {
      if (id === "fs" || id === "node:fs" || id === "fs/promises" || id === "node:fs/promises") patchFs(exports);
    };
  }

  /** Workers the module starts are recorded in `pending`, whose entries run when the call ends: see the file's comment. Returns the patch for `worker_threads`. */
  function trackWorkers(pending: Array<() => void>): (id: unknown, exports: unknown) => void {
    const g = globalThis as unknown as Record<string, unknown>;
    type Terminable = { terminate?(): unknown };
    const tracked = new WeakMap<object, unknown>();
    const tracking = (Ctor: unknown): unknown => {
      if (typeof Ctor !== "function") return Ctor;
      const known = tracked.get(Ctor);
      if (known) return known;
      const proxy = new Proxy(Ctor, {
        construct(target, args, newTarget) {
          const worker = Reflect.construct(target, args, newTarget === proxy ? target : newTarget) as Terminable;
          pending[pending.length] = () => {
            try {
              worker.terminate?.();
            } catch {
              // Already gone.
            }
          };
          return worker as object;
        },
      });
      tracked.set(Ctor, proxy);
      return proxy;
    };
    g.Worker = tracking(g.Worker);
    const patched = new WeakSet<object>();
    return (id, exports) => {
      if (
        (id === "worker_threads" || id === "node:worker_threads") &&
        exports !== null &&
        typeof exports === "object" &&
        !patched.has(exports)
      ) {
        patched.add(exports);
        const threads = exports as Record<string, unknown>;
        threads.Worker = tracking(threads.Worker);
      }
    };
  }

  /** setTimeout, setInterval and setImmediate record how to clear what they set; cleared when the call ends. */
  function trackTimers(): Array<() => void> {
    const pending: Array<() => void> = [];
    const g = globalThis as unknown as Record<string, unknown>;
    const track = (setName: string, clearName: string) => {
      const set = g[setName] as ((...args: unknown[]) => unknown) | undefined;
      const clear = g[clearName] as ((handle: unknown) => void) | undefined;
      if (typeof set !== "function" || typeof clear !== "function") return;
      g[setName] = function (this: unknown, ...args: unknown[]) {
        const handle = set.apply(this, args);
        pending[pending.length] = () => clear(handle);
        return handle;
      };
    };
    track("setTimeout", "clearTimeout");
    track("setInterval", "clearInterval");
    track("setImmediate", "clearImmediate");
    return pending;
  }
}
