/**
 * Entry of every fresh context: one worker runs one invocation (or one
 * inspection) of one CommonJS module, then the host terminates it.
 *
 * Invariants:
 * - No imports. A static import costs 1-4 ms per spawn (measured); the module
 *   under test is loaded with the global `require`, which resolves `node:`
 *   built-ins and the module's own `node_modules`.
 * - Every `ctx` call is synchronous: the request is written into a shared
 *   buffer, the host is woken, and this thread blocks in `Atomics.wait` until
 *   the answer is there. The layout constants mirror `bridge-layout.ts`
 *   (checked by a test, since this file may not import it).
 * - Nothing the module does can reach the host except through that buffer
 *   and the single final message.
 */

const STATE = 0;
const INTERRUPT = 1;
const LENGTH = 2;
const STATUS = 3;
const HEADER_BYTES = 16;
const REQUEST = 1;
const STATUS_TYPE_ERROR = 2;

interface InitMessage {
  mode: "invoke" | "inspect";
  buffer: SharedArrayBuffer;
  modulePath: string;
  exportName?: string;
  args?: unknown[];
  data?: {
    workdir: string;
    session: unknown;
    agent: unknown;
    config: unknown;
  };
}

type LoadFn = (path: string) => unknown;

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent) => void) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = (event: MessageEvent) => {
  scope.onmessage = null;
  void start(event.data as InitMessage);
};

async function start(init: InitMessage): Promise<void> {
  const load = await loader();
  const ctx = init.mode === "invoke" ? createContext(init) : undefined;
  // Module code may print at load time too: to the front end, never to our stdout.
  routeConsole(ctx ? ctx.log : () => {});
  let mod: unknown;
  try {
    mod = load(init.modulePath);
  } catch (error) {
    scope.postMessage({ kind: "load-failed", message: describeLoadError(error) });
    return;
  }
  if (!ctx) {
    scope.postMessage({ kind: "inspected", shape: shapeOf(mod) });
    return;
  }
  const exportName = init.exportName ?? "";
  const target = mod !== null && (typeof mod === "object" || typeof mod === "function") ? (mod as Record<string, unknown>)[exportName] : undefined;
  if (typeof target !== "function") {
    scope.postMessage({ kind: "load-failed", message: `the module does not export a function "${exportName}"` });
    return;
  }
  let value: unknown;
  try {
    value = (target as (...args: unknown[]) => unknown).call(mod, ctx, ...(init.args ?? []));
  } catch (error) {
    scope.postMessage({ kind: "threw", message: describeThrown(error) });
    return;
  }
  postReturned(value);
}

/** Bun (also compiled) has a global `require`; Deno only through node:module. */
async function loader(): Promise<LoadFn> {
  if (typeof require === "function") return require as LoadFn;
  const nodeModule = (await import("node:module")) as { createRequire(from: string): LoadFn };
  return nodeModule.createRequire(import.meta.url);
}

function createContext(init: InitMessage) {
  const buffer = init.buffer;
  const words = new Int32Array(buffer, 0, 4);
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const data = init.data!;

  function call(op: string, ...args: unknown[]): unknown {
    const request = JSON.stringify([op, ...args]);
    let written: number;
    if (HEADER_BYTES + request.length * 3 <= buffer.byteLength) {
      written = encoder.encodeInto(request, new Uint8Array(buffer, HEADER_BYTES)).written;
    } else {
      const bytes = encoder.encode(request);
      if (HEADER_BYTES + bytes.length > buffer.byteLength) grow(HEADER_BYTES + bytes.length);
      new Uint8Array(buffer, HEADER_BYTES, bytes.length).set(bytes);
      written = bytes.length;
    }
    Atomics.store(words, LENGTH, written);
    Atomics.store(words, STATE, REQUEST);
    Atomics.notify(words, STATE);
    while (Atomics.load(words, STATE) === REQUEST) Atomics.wait(words, STATE, REQUEST);
    const length = Atomics.load(words, LENGTH);
    const status = Atomics.load(words, STATUS);
    // Copy out of shared memory first: decoding a view of it is not portable.
    const text = decoder.decode(new Uint8Array(buffer, HEADER_BYTES, length).slice());
    if (status !== 0) throw status === STATUS_TYPE_ERROR ? new TypeError(text) : new Error(text);
    return text === "" ? undefined : JSON.parse(text);
  }

  function grow(bytes: number): void {
    const b = buffer as SharedArrayBuffer & { grow?(n: number): void; maxByteLength?: number };
    const max = b.maxByteLength ?? b.byteLength;
    if (bytes > max) throw new RangeError(`the request is too large (${bytes} bytes, at most ${max})`);
    let size = b.byteLength;
    while (size < bytes) size *= 2;
    b.grow!(Math.min(size, max));
  }

  function log(...parts: unknown[]): void {
    call("log", parts.map((p) => (typeof p === "string" ? p : safeString(p))).join(" "));
  }

  return {
    workdir: data.workdir,
    session: data.session,
    agent: data.agent,
    config: deepFreeze(data.config),
    log,
    sleep(ms: unknown): void {
      const n = Number(ms);
      // Waiting on the interrupt word lets an interrupt end the sleep early.
      if (n > 0) Atomics.wait(words, INTERRUPT, 0, n);
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

/** console output of a module would land on our stdout; send it to the front end instead. */
function routeConsole(log: (...parts: unknown[]) => void): void {
  const c = console as unknown as Record<string, unknown>;
  for (const name of ["log", "info", "warn", "error", "debug", "trace"]) c[name] = log;
}

function postReturned(value: unknown): void {
  const type = describeType(value);
  try {
    scope.postMessage({ kind: "returned", value, type });
    return;
  } catch {
    // Not structured-cloneable (a function inside, a Promise): fall back to its JSON form.
  }
  let copy: unknown;
  try {
    copy = JSON.parse(JSON.stringify(value) ?? "null");
  } catch {
    copy = undefined;
  }
  scope.postMessage({ kind: "returned", value: type === "a Promise" ? undefined : copy, type });
}

function shapeOf(mod: unknown) {
  const members: Record<string, { type: string; value?: unknown }> = {};
  if (mod !== null && (typeof mod === "object" || typeof mod === "function")) {
    for (const key of Object.keys(mod as object)) {
      const value = (mod as Record<string, unknown>)[key];
      const member: { type: string; value?: unknown } = { type: describeType(value) };
      if (typeof value !== "function") {
        try {
          member.value = JSON.parse(JSON.stringify(value) ?? "null");
        } catch {
          // Not JSON-able (cycles, bigint): the type alone tells what is wrong.
        }
      }
      members[key] = member;
    }
  }
  return { type: describeType(mod), members };
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
  if (e && e.name === "ResolveMessage") return stripHostPaths(String(e.message));
  return describeThrown(error);
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
  const self = import.meta.url;
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
