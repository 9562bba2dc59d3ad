/**
 * Context side, discovery only: the world guard of a discovery lane, which
 * tells whether a module loaded in the lane changed what the next one would
 * see. Refers to nothing outside itself (types aside): a part of the kernel
 * (context-kernel.ts), joined with it as source for a realm.
 */
import type { LoadFn } from "./kernel-types.ts";

/** Whether the world changed since the guard was made; dropping the files modules loaded from the require cache. */
export interface WorldGuard {
  changed(): boolean;
  forgetLoadedFiles(): void;
}

/**
 * Records the world now (see the comment inside); called before a lane's
 * first module, so its own references to the built-ins are untouched.
 */
export function createWorldGuard(load: LoadFn): WorldGuard {
  // Our own references: a module loaded in the lane may replace the globals.
  const toJson = JSON.stringify;
  const keysOf = Object.keys;
  const ownKeys = Reflect.ownKeys;
  const describeOwn = Reflect.getOwnPropertyDescriptor;
  const protoOf = Object.getPrototypeOf;
  const isExtensible = Object.isExtensible;
  const sameValue = Object.is;

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

  type Print = unknown[];

  /** Members of process worth watching; reading all of them materialises lazy ones (slow). */
  const PROCESS_MEMBERS = [
    "cwd",
    "chdir",
    "exit",
    "nextTick",
    "emit",
    "on",
    "env",
    "argv",
    "execPath",
    "platform",
    "version",
    "versions",
    "exitCode",
    "emitWarning",
    "hrtime",
    "umask",
  ];
  /** The globals whose members (and whose prototype's members) a lane watches. */
  const CORE_GLOBALS = [
    "Object",
    "Function",
    "Array",
    "String",
    "Number",
    "Boolean",
    "Promise",
    "RegExp",
    "Date",
    "Error",
    "Map",
    "Set",
    "JSON",
    "Math",
    "Reflect",
  ];
  /** Other globals a module may replace: which value they hold is watched, not their members. */
  const OTHER_GLOBALS = [
    "fetch",
    "setTimeout",
    "setInterval",
    "setImmediate",
    "clearTimeout",
    "queueMicrotask",
    "structuredClone",
    "require",
    "process",
    "console",
    "Bun",
    "Deno",
  ];

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

  const isObject = (value: unknown): value is object =>
    value !== null && (typeof value === "object" || typeof value === "function");

  function dataValue(target: object, key: PropertyKey): unknown {
    const d = describeOwn(target, key);
    return d && "value" in d ? d.value : undefined;
  }

  return guard();

  function guard(): WorldGuard {
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
    const processPrint = () =>
      proc ? PROCESS_MEMBERS.map((key) => describeOwn(proc, key)?.value ?? describeOwn(proc, key)?.get) : [];
    const envPrint = () => (proc && isObject(proc.env) ? toJson(proc.env) : "");
    const processBefore = processPrint();
    const envBefore = envPrint();
    const requireFn = (globalThis as { require?: unknown }).require;
    watch(requireFn);
    watch(isObject(requireFn) ? dataValue(requireFn, "extensions") : undefined);
    let cache: Record<string, unknown> | undefined;
    let cachedBefore: string[] = [];
    try {
      const Module = load("node:module") as {
        prototype: { require: (this: unknown, id: string) => unknown };
        _extensions?: unknown;
        isBuiltin?(id: string): boolean;
      };
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
}
