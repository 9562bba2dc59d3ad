/**
 * The extension runtime: runs "export X of module M with ctx and these
 * arguments", each call in a fresh Worker, with every `ctx` member
 * synchronous (Atomics.wait on a shared buffer, served by the main thread).
 *
 * Invariants: one worker per invocation, which runs nothing after its call
 * (it parks until ended); no user code runs in a spare before its call;
 * failures are Outcome values, never rejections; an interrupt ends the
 * worker (even a busy one) and kills the process groups it started, at once,
 * through `ctx.system.exec` or `node:child_process` alike (the latter also
 * when the call ends).
 * Must not know what a tool or a hook is, and must not import anything but
 * leaves: it owns the shape of the call context (`ctx` data, front end),
 * which tools/ re-exports.
 */
export { createRuntime } from "./create-runtime.ts";
export { runProcess, type ProcessRequest, type ProcessResult } from "./run-process.ts";
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
