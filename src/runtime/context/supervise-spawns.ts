/**
 * Context side: the supervision of the processes a module starts itself
 * (Bun's two spawn functions, which node:child_process is built on).
 * Refers to nothing outside itself (types aside): a part of the kernel
 * (context-kernel.ts), joined with it as source for a realm.
 */
import type { CallHost, WordOp } from "./kernel-types.ts";
import type { StdioSpec, SyncSpawnAnswer, SyncSpawnRequest } from "../host/host-spawn-sync.ts";

/**
 * Replaces this context's spawn functions (see superviseSpawns below).
 * `call`: the synchronous ctx call to the host; `word`: Atomics on the
 * bridge's words; `hostServes`: whether the host serves the bridge now
 * (during a call, not while a module is only looked at).
 */
export function superviseSpawns(call: CallHost, word: WordOp, hostServes: () => boolean): void {
  // The bridge layout (bridge-layout.ts; test/runtime/bridge-layout.test.ts keeps them in step).
  const INTERRUPT = 1;
  const GROUP_COUNT = 4;
  const SPAWNING = 6;
  const GROUP_FIRST = 7;
  const GROUP_SLOTS = 1017;
  /** What a `ctx` call throws once the host stopped serving this context (it is being ended). */
  const INTERRUPTED = "the call was interrupted";

  type SpawnFn = (this: unknown, ...args: unknown[]) => unknown;
  type SpawnOptions = Record<string, unknown>;

  /**
   * A process a module starts itself (`node:child_process`'s spawn, exec,
   * execFile, fork and their synchronous forms, all built on Bun's two spawn
   * functions, which they look up on the global `Bun` at each call) must not
   * outlive the call, as for `ctx.system.exec`. So this worker's copy of those
   * two functions is replaced, once, before any module runs (measured: 5 µs;
   * the `Bun` object and its functions belong to this worker alone, so the
   * next call gets them untouched, and a discovery lane records the world
   * after this):
   * - an asynchronous spawn starts the child as the leader of a process group
   *   of its own (`detached`), and records the group in the bridge buffer's
   *   table; the host ends the recorded groups when the call ends or is
   *   interrupted, and does not end the worker while it is between starting
   *   a child and recording it (context-processes.ts);
   * - a synchronous one is run by the host while this worker waits in
   *   `Atomics.wait` (host-spawn-sync.ts): blocked in the native spawn, the
   *   worker could not be ended, and the child would outlive the interrupt.
   *   While a module is only looked at (discovery) nothing serves the bridge,
   *   so there it runs here, as before.
   * A caller asking for `detached: true` leaves on purpose, like `setsid`:
   * left alone. Elsewhere than Bun (Deno), and on Windows (no process groups),
   * nothing is replaced.
   */
  function supervise(): void {
    const runtime = (globalThis as { Bun?: { spawn?: SpawnFn; spawnSync?: SpawnFn } }).Bun;
    const platform = (globalThis as { process?: { platform?: string } }).process?.platform;
    if (!runtime || platform === "win32") return;
    const spawnAsync = runtime.spawn;
    const spawnSync = runtime.spawnSync;
    if (typeof spawnAsync !== "function" || typeof spawnSync !== "function") return;

    runtime.spawn = function spawn(this: unknown, first: unknown, second?: unknown): unknown {
      const options = awayFromStdout(spawnOptions(first, second));
      if (options?.detached === true)
        return Array.isArray(first) ? spawnAsync.call(this, first, options) : spawnAsync.call(this, options);
      const recorded = word("load", GROUP_COUNT, 0, 0);
      if (recorded >= GROUP_SLOTS) {
        throw new Error(
          `this call has started ${GROUP_SLOTS} processes, which end with it, and cannot start more: run commands with ctx.system.exec, or pass detached: true for a process that must outlive the call`,
        );
      }
      const own = { ...options, detached: true };
      // Ending this worker between the start of the child and its record would
      // lose the child: the host waits while SPAWNING is set, and sets
      // INTERRUPT before it looks. Each side writes, then reads the other's
      // word, so at least one of them sees the other.
      word("store", SPAWNING, 1, 0);
      try {
        if (word("load", INTERRUPT, 0, 0) !== 0) throw new Error(INTERRUPTED);
        const child = (Array.isArray(first) ? spawnAsync.call(this, first, own) : spawnAsync.call(this, own)) as {
          pid?: unknown;
        };
        const pid = child.pid;
        if (typeof pid === "number" && pid > 1) {
          word("store", GROUP_FIRST + recorded, pid, 0);
          word("store", GROUP_COUNT, recorded + 1, 0);
        }
        return child;
      } finally {
        word("store", SPAWNING, 0, 0);
        word("notify", SPAWNING, 0, 0);
      }
    };

    runtime.spawnSync = function spawnSyncThroughHost(this: unknown, first: unknown, second?: unknown): unknown {
      const options = awayFromStdout(spawnOptions(first, second));
      const request =
        hostServes() && options?.detached !== true
          ? syncSpawnRequest(Array.isArray(first) ? first : options?.cmd, options ?? {})
          : undefined;
      if (!request) {
        if (!options) return spawnSync.apply(this, arguments as unknown as unknown[]);
        return Array.isArray(first) ? spawnSync.call(this, first, options) : spawnSync.call(this, options);
      }
      const answer = call("child.spawnSync", request) as SyncSpawnAnswer;
      if ("error" in answer) {
        const { message, ...fields } = answer.error;
        throw Object.assign(new Error(message), fields);
      }
      const bytes = (text: string | null) => (text === null ? undefined : Buffer.from(text, "base64"));
      return {
        pid: answer.pid,
        exitCode: answer.exitCode,
        signalCode: answer.signalCode ?? undefined,
        stdout: bytes(answer.stdout),
        stderr: bytes(answer.stderr),
        success: answer.exitCode === 0,
        exitedDueToTimeout: answer.exitedDueToTimeout || undefined,
        exitedDueToMaxBuffer: answer.exitedDueToMaxBuffer || undefined,
      };
    };
  }

  /**
   * The options with every stream of the child that would be this process's
   * stdout (`stdio: "inherit"`, `[…, "inherit", …]`, descriptor 1) sent to
   * its stderr instead: stdout carries a run's answer, its JSON events or an
   * MCP server's messages, byte for byte, and a command a tool runs with its
   * output inherited (`execSync("npm test", { stdio: "inherit" })`) must not
   * write into them. On stderr it reads as any live output does.
   */
  function awayFromStdout(options: SpawnOptions | undefined): SpawnOptions | undefined {
    if (!options) return options;
    const away = (value: unknown, index: number) => (value === 1 || (index === 1 && value === "inherit") ? 2 : value);
    let out = options;
    const stdio = options.stdio;
    if (Array.isArray(stdio)) {
      const moved = stdio.map((value, i) => (i === 0 ? value : away(value, i)));
      if (moved.some((value, i) => value !== stdio[i])) out = { ...out, stdio: moved };
    }
    if (away(options.stdout, 1) !== options.stdout) out = { ...out, stdout: 2 };
    if (options.stderr === 1) out = { ...out, stderr: 2 };
    return out;
  }

  /** The options of a spawn called as `(cmd[], options?)` or `(options)`. */
  function spawnOptions(first: unknown, second: unknown): SpawnOptions | undefined {
    const options = Array.isArray(first) ? second : first;
    return options !== null && typeof options === "object" ? (options as SpawnOptions) : undefined;
  }

  /** Options of a synchronous spawn the host knows how to run it with. */
  const HOST_SPAWN_OPTIONS = [
    "cmd",
    "cwd",
    "env",
    "stdio",
    "stdin",
    "stdout",
    "stderr",
    "detached",
    "argv0",
    "timeout",
    "killSignal",
    "maxBuffer",
    "uid",
    "gid",
    "windowsHide",
    "windowsVerbatimArguments",
  ];

  /**
   * The options of a synchronous spawn as the host runs it (host-spawn-sync.ts),
   * or undefined when something in them cannot travel as JSON (a stream, a
   * Blob, an option the host does not know): that spawn then runs here.
   */
  function syncSpawnRequest(cmd: unknown, options: SpawnOptions): SyncSpawnRequest | undefined {
    if (!Array.isArray(cmd) || cmd.length === 0) return undefined;
    const argv: string[] = [];
    for (let i = 0; i < cmd.length; i++) {
      if (typeof cmd[i] !== "string") return undefined;
      argv[i] = cmd[i] as string;
    }
    for (const key of Object.keys(options))
      if (options[key] !== undefined && !HOST_SPAWN_OPTIONS.includes(key)) return undefined;
    const given = Array.isArray(options.stdio)
      ? (options.stdio as unknown[])
      : [options.stdin ?? "ignore", options.stdout ?? "pipe", options.stderr ?? "pipe"];
    // Bun's defaults for the streams a short list leaves out are its own business.
    if (given.length < 3) return undefined;
    const stdio: StdioSpec[] = [];
    for (let i = 0; i < Math.max(3, given.length); i++) {
      const spec = stdioSpec(given[i], i);
      if (spec === undefined) return undefined;
      if (i < 3) stdio[i] = spec;
      // A fourth stream or more: only nothing at all can be left out.
      else if (spec !== "ignore") return undefined;
    }
    const proc = (globalThis as { process?: { env?: Record<string, unknown>; cwd?(): string } }).process;
    const envGiven = (options.env ?? proc?.env ?? {}) as Record<string, unknown>;
    const env: Record<string, string> = {};
    for (const name of Object.keys(envGiven)) if (envGiven[name] !== undefined) env[name] = String(envGiven[name]);
    const request: SyncSpawnRequest = {
      cmd: argv,
      cwd: typeof options.cwd === "string" && options.cwd !== "" ? options.cwd : (proc?.cwd?.() ?? "."),
      env,
      stdio,
    };
    if (typeof options.argv0 === "string") request.argv0 = options.argv0;
    for (const key of ["timeout", "maxBuffer", "uid", "gid"] as const) {
      const value = options[key];
      // Infinity (no limit) has no JSON form: no limit is what leaving it out means.
      if (typeof value === "number" && Number.isFinite(value)) request[key] = value;
    }
    if (typeof options.killSignal === "string" || typeof options.killSignal === "number")
      request.killSignal = options.killSignal;
    return request;
  }

  function stdioSpec(value: unknown, index: number): StdioSpec | undefined {
    if (value === undefined || value === null || value === "ignore") return "ignore";
    if (value === "pipe" || value === "inherit") return value;
    if (typeof value === "number") return Number.isInteger(value) && value >= 0 ? value : undefined;
    if (index === 0 && ArrayBuffer.isView(value)) {
      return { input: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64") };
    }
    return undefined;
  }

  supervise();
}
