/** Host side: a context's synchronous spawn, run on the main thread where an interrupt can reach it. */
import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import { CtxError } from "./ctx-error.ts";
import { isRecord } from "../../values.ts";
import { killProcessGroup, PIPE_GRACE_MS } from "./context-processes.ts";

/**
 * A synchronous spawn of a context (`spawnSync`, `execSync`, `execFileSync`
 * of `node:child_process`, or Bun's own), run here on the main thread
 * instead. Run in the worker, the child would block it in native code, where
 * ending the worker cannot reach it (measured with Bun 1.4.5: `terminate()`
 * returns, the worker stays blocked, and the child outlives the call and
 * Rienda). Here it runs like `ctx.system.exec`: as the leader of a process
 * group of its own, which is killed when the call is interrupted and when
 * the child exits (what it left in the background ends with it), while the
 * worker waits in `Atomics.wait`, where ending it works.
 *
 * What the worker sends is the options of Bun's synchronous spawn (which
 * `node:child_process` builds), made JSON: buffers as base64, the input in
 * `stdio[0]`. The answer has the fields that function returns, which the
 * worker turns back into its result, or the error it would have thrown.
 */
export interface SyncSpawnRequest {
  /** The file, then its arguments. */
  cmd: string[];
  argv0?: string;
  cwd: string;
  env: Record<string, string>;
  /** Each of stdin, stdout, stderr: "pipe", "inherit", "ignore", a file descriptor, or (stdin) the input, base64. */
  stdio: Array<StdioSpec>;
  timeout?: number;
  killSignal?: string | number;
  maxBuffer?: number;
  uid?: number;
  gid?: number;
}

export type StdioSpec = "pipe" | "inherit" | "ignore" | number | { input: string };

export type SyncSpawnAnswer =
  | {
      pid: number;
      exitCode: number | null;
      signalCode: string | null;
      /** base64, when the stream was a pipe. */
      stdout: string | null;
      stderr: string | null;
      exitedDueToTimeout: boolean;
      exitedDueToMaxBuffer: boolean;
    }
  /** The child could not start (the command does not exist, the folder does not); what the spawn threw. */
  | { error: { message: string; code?: string; errno?: number; path?: string } };

/** Checks what a context sent; the worker builds it, so a mismatch is an internal error. */
export function readSyncSpawnRequest(value: unknown): SyncSpawnRequest {
  const bad = (what: string) => new CtxError(`child_process: ${what} (internal error)`, { typeError: true });
  if (!isRecord(value)) throw bad("expected the spawn's options");
  const r = value as Record<string, unknown>;
  if (!Array.isArray(r.cmd) || r.cmd.length === 0 || !r.cmd.every((part) => typeof part === "string"))
    throw bad("cmd must be a list of strings");
  if (typeof r.cwd !== "string") throw bad("cwd must be a string");
  if (!isRecord(r.env) || !Object.values(r.env).every((v) => typeof v === "string"))
    throw bad("env must map names to strings");
  if (!Array.isArray(r.stdio) || r.stdio.length !== 3 || !r.stdio.every(isStdioSpec))
    throw bad("stdio must list three streams");
  for (const key of ["timeout", "maxBuffer", "uid", "gid"] as const) {
    if (r[key] !== undefined && typeof r[key] !== "number") throw bad(`${key} must be a number`);
  }
  if (r.killSignal !== undefined && typeof r.killSignal !== "string" && typeof r.killSignal !== "number")
    throw bad("killSignal must be a name or a number");
  if (r.argv0 !== undefined && typeof r.argv0 !== "string") throw bad("argv0 must be a string");
  return value as unknown as SyncSpawnRequest;
}

function isStdioSpec(value: unknown): value is StdioSpec {
  if (value === "pipe" || value === "inherit" || value === "ignore") return true;
  if (typeof value === "number") return Number.isInteger(value) && value >= 0;
  return isRecord(value) && typeof (value as { input?: unknown }).input === "string";
}

/** Runs the child to its end (see SyncSpawnRequest); never rejects. */
export function spawnToEnd(request: SyncSpawnRequest, signal: AbortSignal): Promise<SyncSpawnAnswer> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve({ error: { message: "the call was interrupted" } });
      return;
    }
    const [file, ...args] = request.cmd as [string, ...string[]];
    const input = typeof request.stdio[0] === "object" ? Buffer.from(request.stdio[0].input, "base64") : undefined;
    const stdio = request.stdio.map((spec) => (typeof spec === "object" ? "pipe" : spec)) as StdioOptions;
    let child: ChildProcess;
    try {
      child = spawn(file, args, {
        cwd: request.cwd,
        env: request.env,
        stdio,
        detached: true,
        ...(request.argv0 !== undefined ? { argv0: request.argv0 } : {}),
        ...(request.uid !== undefined ? { uid: request.uid } : {}),
        ...(request.gid !== undefined ? { gid: request.gid } : {}),
      });
    } catch (error) {
      resolve({ error: describeSpawnError(error) });
      return;
    }

    const output = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
    const received = { stdout: 0, stderr: 0 };
    const killSignal = request.killSignal ?? "SIGTERM";
    let timedOut = false;
    let overflowed = false;
    let exit: { code: number | null; signal: string | null } | undefined;
    let openStreams = 0;
    let done = false;
    let graceTimer: ReturnType<typeof setTimeout> | undefined;

    const killGroup = () => {
      if (child.pid !== undefined) killProcessGroup(child.pid);
    };
    const onAbort = () => killGroup();
    signal.addEventListener("abort", onAbort, { once: true });
    const timer =
      request.timeout !== undefined && request.timeout > 0
        ? setTimeout(() => {
            timedOut = true;
            child.kill(killSignal as NodeJS.Signals);
          }, request.timeout)
        : undefined;

    const finish = (answer: SyncSpawnAnswer) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(graceTimer);
      signal.removeEventListener("abort", onAbort);
      resolve(answer);
    };
    const finishExited = () => {
      if (!exit) return;
      const text = (name: "stdout" | "stderr") => (child[name] ? Buffer.concat(output[name]).toString("base64") : null);
      finish({
        pid: child.pid!,
        exitCode: exit.code,
        signalCode: exit.signal,
        stdout: text("stdout"),
        stderr: text("stderr"),
        exitedDueToTimeout: timedOut,
        exitedDueToMaxBuffer: overflowed,
      });
    };

    for (const name of ["stdout", "stderr"] as const) {
      const stream = child[name];
      if (!stream) continue;
      openStreams++;
      stream.on("data", (chunk: Buffer) => {
        output[name].push(chunk);
        received[name] += chunk.length;
        // As Bun does: the child is stopped, and what was read is kept.
        if (request.maxBuffer !== undefined && received[name] > request.maxBuffer && !overflowed) {
          overflowed = true;
          child.kill(killSignal as NodeJS.Signals);
        }
      });
      stream.on("close", () => {
        openStreams--;
        if (openStreams === 0) finishExited();
      });
    }
    if (child.stdin) {
      // A child that does not read its input closes the pipe early: not an error of the call.
      child.stdin.on("error", () => {});
      child.stdin.end(input);
    }

    child.on("error", (error) => {
      // Only a child that never started answers with an error; one that ran has its exit.
      if (child.pid === undefined) finish({ error: describeSpawnError(error) });
    });
    child.on("exit", (code, exitSignal) => {
      exit = { code, signal: exitSignal };
      // What the command left running in the background ends with it.
      killGroup();
      if (openStreams === 0) return finishExited();
      // A process that left the group (setsid) may hold the pipes open forever; do not wait for it.
      graceTimer = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finishExited();
      }, PIPE_GRACE_MS);
    });
  });
}

function describeSpawnError(error: unknown): { message: string; code?: string; errno?: number; path?: string } {
  const e = (error ?? {}) as { message?: unknown; code?: unknown; errno?: unknown; path?: unknown };
  return {
    message: typeof e.message === "string" ? e.message : String(error),
    ...(typeof e.code === "string" ? { code: e.code } : {}),
    ...(typeof e.errno === "number" ? { errno: e.errno } : {}),
    ...(typeof e.path === "string" ? { path: e.path } : {}),
  };
}
