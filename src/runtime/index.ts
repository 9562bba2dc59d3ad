/**
 * The extension runtime: runs "export X of module M, called with ctx and
 * these arguments" for tools/ and extensions/, which it knows nothing about.
 * docs/runtime.md is the map of how one call runs.
 *
 * What it promises:
 * - A fresh context per call: nothing one call leaves behind (module
 *   variables, globals, patched built-ins and prototypes, `require`d files,
 *   `process.env`, the directory, the file mode mask) is seen by another, and
 *   nothing it left queued (a timer, a promise callback) runs after it
 *   (test/runtime/freshness-cases.ts). Under Bun a call runs in a new
 *   ShadowRealm of one helper worker once calls keep coming; the first call,
 *   a call while the helper is busy, discovery, every call under Deno and
 *   every call with RIENDA_CONTEXTS=workers get a worker of their own.
 * - Every `ctx` member is synchronous (the context blocks in Atomics.wait on
 *   a shared buffer; the main thread serves it without ever blocking).
 * - Failures are Outcome values; `invoke` and `inspect` never reject.
 * - An interrupt ends every call in flight, a busy one too (`while(true){}`),
 *   within milliseconds, and kills the process groups it started, through
 *   `ctx.system.exec`, `node:child_process` or Bun's spawn alike; those also
 *   end when the call ends, whichever way it ends.
 * - Nothing a module does writes to Rienda's stdout (console, process.stdout,
 *   `fs` writes to descriptor 1, a child's inherited stdout): it reaches the
 *   front end's log (or stderr) instead, so answers and JSON events stay whole.
 * - A module's `process.exit` ends its context only and `process.abort()`
 *   fails its call only: neither ends Rienda.
 *
 * What it does not promise:
 * - Isolation from the machine: a module has the user's rights (files,
 *   network, processes); this is freshness between calls, not a sandbox.
 * - Limits of time or memory on a call: the caller interrupts (inspection
 *   alone has a load timeout).
 * - Following a process that leaves on purpose (`detached: true`, `setsid`),
 *   nor any process group at all on Windows.
 * - Which context design a call gets, or how long it takes: both are tuned
 *   (figures beside each constant), never part of a result.
 *
 * Must not know what a tool or a hook is, and must not import anything but
 * leaves: it owns the shape of the call context (`ctx` data, front end),
 * which tools/ re-exports.
 */
export { createRuntime } from "./host/create-runtime.ts";
export { runProcess, type ProcessRequest, type ProcessResult } from "./host/run-process.ts";
export type {
  AgentInfo,
  ContextData,
  FrontEnd,
  InspectOutcome,
  InvocationContext,
  InvokeRequest,
  MemberShape,
  ModuleShape,
  Outcome,
  Prompt,
  Runtime,
  RuntimeOptions,
  SessionInfo,
} from "./types.ts";
