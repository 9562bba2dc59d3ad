/**
 * Context side: routes everything a module would write to Rienda's stdout
 * (console, process.stdout/stderr, fs writes to descriptor 1) to the log.
 * Refers to nothing outside itself (types aside): a part of the kernel
 * (context-kernel.ts), joined with it as source for a realm.
 */
import type { LoadFn } from "./kernel-types.ts";

/**
 * Sets the routing up, once, before any module runs. `canPark`: not Deno
 * (whose streams are patched plainly, see routeConsole); `load` undefined
 * while Deno's loader is still coming.
 */
export function routeOutput(log: (...parts: unknown[]) => void, load: LoadFn | undefined, canPark: boolean): void {
  routeConsole(log, load);

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
    if (canPark && load && routeThroughProxy(proc, log, load)) return;
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
    Object.defineProperty(globalThis, "process", {
      value: wrapped,
      configurable: true,
      writable: true,
      enumerable: true,
    });
    const routedFs = new WeakSet<object>();
    const routeFs = (id: unknown, exports: unknown) => {
      if (
        (id === "fs" || id === "node:fs") &&
        exports !== null &&
        typeof exports === "object" &&
        !routedFs.has(exports)
      ) {
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
      if (ArrayBuffer.isView(data))
        return decoder.decode(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
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
    wrap("writeSync", ([, data, offset, length]) =>
      emit(textOf(data, typeof data === "string" ? undefined : offset, length)),
    );
    wrap("writevSync", ([, buffers]) => emit((buffers as unknown[]).map((b) => textOf(b)).join("")));
    wrap("writeFileSync", ([, data]) => void emit(textOf(data)));
    wrap("appendFileSync", ([, data]) => void emit(textOf(data)));
    wrap("write", (args) => {
      const data = args[1];
      const written = emit(
        textOf(data, typeof data === "string" ? undefined : args[2], typeof args[3] === "number" ? args[3] : undefined),
      );
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

  /** A `write(chunk, [encoding], [callback])` that hands the text to `log`, one line break at the end dropped (log lines get their own). */
  function streamWriter(log: (text: string) => void): (...args: unknown[]) => boolean {
    const decoder = new TextDecoder();
    return (chunk: unknown, ...rest: unknown[]) => {
      const text =
        typeof chunk === "string" ? chunk : chunk instanceof Uint8Array ? decoder.decode(chunk) : String(chunk);
      if (text !== "") log(text.endsWith("\n") ? text.slice(0, -1) : text);
      const callback = rest.find((r) => typeof r === "function") as (() => void) | undefined;
      callback?.();
      return true;
    };
  }
}
