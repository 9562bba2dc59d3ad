/** Host side: one shell command in its own process group (`ctx.system.exec`, the shell tool). */
import { spawn } from "node:child_process";
import { BoundedText, type Cut } from "./bounded-text.ts";
import { killProcessGroup, PIPE_GRACE_MS } from "./context-processes.ts";

/** One shell command to run. */
export interface ProcessRequest {
  command: string;
  /** What to start instead of `sh -c command` (the `shell` tool's sandbox: `bwrap ... -- sh -c command`); `command` still names it. */
  argv?: readonly string[];
  /** Absolute directory the command runs in. */
  cwd: string;
  /** Added to (and overriding) this process's environment. */
  env?: Record<string, string>;
  /** Left out of the environment inherited from this process (the `shell` tool's provider keys). */
  hideEnv?: readonly string[];
  /** Kills the process group after this many milliseconds. */
  timeoutMs?: number;
  /** Kills the process group at once when aborted. */
  signal?: AbortSignal;
  /** Live output, decoded as it arrives (invalid UTF-8 replaced). */
  onOutput?(stream: "stdout" | "stderr", text: string): void;
  /**
   * Keep at most this many characters of each stream in the result: its
   * first and its last half (streaming is never cut). Default: everything.
   */
  maxCaptureChars?: number;
}

/** How a command ended. */
export interface ProcessResult {
  /** Exit code, or -1 when a signal (or the timeout) ended it. */
  code: number;
  /** What was kept of each stream (all of it unless `cut` says otherwise). */
  stdout: string;
  stderr: string;
  /** Where text was cut out of a stream kept past `maxCaptureChars`. */
  cut?: { stdout?: Cut; stderr?: Cut };
  timedOut: boolean;
  /** True when the signal passed in the request ended it. */
  interrupted: boolean;
}

/**
 * Runs `sh -c command` in its own process group, so that a timeout or an
 * interrupt can kill everything it started (children do not die with us).
 * When the shell exits, the rest of its group is killed too: a command
 * started in the background (`cmd &`) ends with the call. Only a process
 * that leaves the group on purpose (`setsid cmd &`) outlives it.
 * Rejects only when the command cannot be started at all.
 */
export function runProcess(request: ProcessRequest): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    if (request.signal?.aborted) {
      resolve({ code: -1, stdout: "", stderr: "", timedOut: false, interrupted: true });
      return;
    }
    const [program, ...args] = request.argv ?? ["sh", "-c", request.command];
    const child = spawn(program!, args, {
      cwd: request.cwd,
      env: { ...inherited(request.hideEnv), ...request.env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const limit = request.maxCaptureChars ?? Number.POSITIVE_INFINITY;
    const captured = { stdout: new BoundedText(limit), stderr: new BoundedText(limit) };
    let timedOut = false;
    let interrupted = false;
    let exitCode: number | null = null;
    let exitSignal: string | null = null;
    let finished = false;
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    let openStreams = 2;

    const killGroup = () => {
      if (child.pid !== undefined) killProcessGroup(child.pid);
    };
    const onAbort = () => {
      interrupted = true;
      killGroup();
    };
    request.signal?.addEventListener("abort", onAbort, { once: true });
    const timer =
      request.timeoutMs !== undefined && request.timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            killGroup();
          }, request.timeoutMs)
        : undefined;

    for (const name of ["stdout", "stderr"] as const) {
      const stream = child[name];
      // ignoreBOM: a byte order mark the command prints is part of its output.
      const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
      stream.on("data", (chunk: Buffer) => {
        const text = decoder.decode(chunk, { stream: true });
        if (text === "") return;
        captured[name].push(text);
        request.onOutput?.(name, text);
      });
      stream.on("close", () => {
        const rest = decoder.decode();
        if (rest !== "") {
          captured[name].push(rest);
          request.onOutput?.(name, rest);
        }
        openStreams--;
        if (openStreams === 0 && exitCode !== null) finish();
        if (openStreams === 0 && exitSignal !== null) finish();
      });
    }

    const finish = () => {
      if (finished) return;
      finished = true;
      if (timer) clearTimeout(timer);
      if (graceTimer) clearTimeout(graceTimer);
      request.signal?.removeEventListener("abort", onAbort);
      const killed = exitSignal !== null || timedOut || interrupted;
      const stdout = captured.stdout.kept();
      const stderr = captured.stderr.kept();
      resolve({
        code: killed ? -1 : (exitCode ?? -1),
        stdout: stdout.text,
        stderr: stderr.text,
        ...(stdout.cut || stderr.cut
          ? { cut: { ...(stdout.cut ? { stdout: stdout.cut } : {}), ...(stderr.cut ? { stderr: stderr.cut } : {}) } }
          : {}),
        timedOut,
        interrupted,
      });
    };

    child.on("error", (error) => {
      if (finished) return;
      finished = true;
      if (timer) clearTimeout(timer);
      request.signal?.removeEventListener("abort", onAbort);
      reject(error);
    });
    child.on("exit", (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      // What the command left running in the background ends with it.
      killGroup();
      if (openStreams === 0) {
        finish();
        return;
      }
      // A child that left the group (setsid) may hold the pipes open forever; do not wait for it.
      graceTimer = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish();
      }, PIPE_GRACE_MS);
    });
  });
}

/** This process's environment, less the names in `hide`. */
function inherited(hide: readonly string[] | undefined): NodeJS.ProcessEnv {
  if (!hide || hide.length === 0) return process.env;
  const env = { ...process.env };
  for (const name of hide) delete env[name];
  return env;
}
