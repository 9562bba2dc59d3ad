/** Host side: performs the `ctx` operations a context asks for over its bridge (`which` and `system.exec` here, the others in their files). */
import { accessSync, constants, existsSync, statSync } from "node:fs";
import { delimiter, isAbsolute, resolve } from "node:path";
import type { FrontEnd, Prompt } from "../types.ts";
import { CtxError } from "./ctx-error.ts";
import { createCacheHost } from "./host-cache.ts";
import { createFileHost } from "./host-file.ts";
import { readSyncSpawnRequest, spawnToEnd } from "./host-spawn-sync.ts";
import type { Cut } from "./bounded-text.ts";
import { httpFetch } from "./host-http.ts";
import { runProcess } from "./run-process.ts";
import type { CtxHandler } from "./serve-bridge.ts";

/** What the host side of one invocation's `ctx` works with. */
export interface CtxScope {
  workdir: string;
  /** The absolute `~/.rienda`, home of `ctx.cache` and `ctx.store` (host-cache.ts). */
  riendaDir: string;
  frontEnd: FrontEnd;
  /** Aborted when this invocation is interrupted: ends processes and requests at once. */
  signal: AbortSignal;
  /** The most bytes a `ctx.http.fetch` body may have (InvocationContext.httpBodyLimitBytes); none when undefined. */
  httpBodyLimitBytes?: number;
}

/**
 * How much of each stream `ctx.system.exec` keeps for its result (its first
 * and last halves); the live stream to the front end is never cut.
 */
export const EXEC_KEEP_CHARS = 8 * 1024 * 1024;

/** Stands where `ctx.system.exec` cut text out of a stream, on its own line. */
export function execCutMarker(dropped: number): string {
  return `\n[output truncated: ${dropped} characters cut here]\n`;
}

/** Maps every `ctx` operation name to the code that performs it for one invocation. */
export function createCtxHandler(scope: CtxScope): CtxHandler {
  const file = createFileHost(scope.workdir);
  const ops: Record<string, (...args: unknown[]) => unknown> = {
    log: (text) => scope.frontEnd.log(String(text)),
    notify: (prompt) => scope.frontEnd.notify(promptOf("notify", prompt)),
    confirm: (prompt) => scope.frontEnd.confirm(promptOf("confirm", prompt)),
    "file.read": (path, opts) => file.read(path, opts),
    "file.write": (path, data, opts) => file.write(path, data, opts),
    "file.exists": (path) => file.exists(path),
    "file.list": (path, opts) => file.list(path, opts),
    ...createCacheHost(scope.riendaDir),
    "env.get": (name) => {
      if (typeof name !== "string") throw new CtxError("ctx.env.get: name must be a string", { typeError: true });
      return process.env[name] ?? null;
    },
    "http.fetch": (url, opts) => httpFetch(url, opts, scope.signal, scope.httpBodyLimitBytes),
    "system.exec": (command, opts) => exec(scope, command, opts),
    "system.which": (name) => {
      if (typeof name !== "string") throw new CtxError("ctx.system.which: name must be a string", { typeError: true });
      return findExecutable(name, scope.workdir, process.env.PATH);
    },
    // Not a member of ctx: the context's synchronous child_process calls come here (host-spawn-sync.ts).
    "child.spawnSync": (request) => spawnToEnd(readSyncSpawnRequest(request), scope.signal),
  };
  return (op, args) => {
    const fn = ops[op];
    if (!fn) throw new CtxError(`unknown ctx operation "${op}"`);
    return fn(...args);
  };
}

function promptOf(member: string, value: unknown): Prompt {
  if (value === null || typeof value !== "object") {
    throw new CtxError(`ctx.${member}: expected { title, body }`, { typeError: true });
  }
  const { title, body } = value as Record<string, unknown>;
  return {
    title: title === undefined || title === null ? "" : String(title),
    body: body === undefined || body === null ? "" : String(body),
  };
}

async function exec(scope: CtxScope, command: unknown, opts: unknown) {
  if (typeof command !== "string" || command === "")
    throw new CtxError("ctx.system.exec: command must be a non-empty string", { typeError: true });
  const o = (opts !== null && typeof opts === "object" ? opts : {}) as Record<string, unknown>;
  if (o.cwd !== undefined && o.cwd !== null && typeof o.cwd !== "string")
    throw new CtxError("ctx.system.exec: cwd must be a string", { typeError: true });
  const cwd = typeof o.cwd === "string" && o.cwd !== "" ? resolve(scope.workdir, o.cwd) : scope.workdir;
  if (!existsSync(cwd) || !statSync(cwd).isDirectory())
    throw new CtxError(`ctx.system.exec: cwd is not a directory: "${String(o.cwd ?? ".")}"`);
  const env: Record<string, string> = {};
  if (o.env !== undefined && o.env !== null) {
    if (typeof o.env !== "object") throw new CtxError("ctx.system.exec: env must be an object", { typeError: true });
    for (const [k, v] of Object.entries(o.env as Record<string, unknown>)) env[k] = String(v);
  }
  const timeoutMs = typeof o.timeout_ms === "number" && o.timeout_ms > 0 ? o.timeout_ms : undefined;
  try {
    const result = await runProcess({
      command,
      cwd,
      env,
      timeoutMs,
      signal: scope.signal,
      maxCaptureChars: EXEC_KEEP_CHARS,
      onOutput: (stream, text) => scope.frontEnd.output(stream, text),
    });
    const stdout = withMarker(result.stdout, result.cut?.stdout);
    const stderr = withMarker(result.stderr, result.cut?.stderr);
    return result.cut ? { code: result.code, stdout, stderr, truncated: true } : { code: result.code, stdout, stderr };
  } catch (error) {
    throw new CtxError(
      `ctx.system.exec: cannot start the shell: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

function withMarker(text: string, cut: Cut | undefined): string {
  return cut ? text.slice(0, cut.at) + execCutMarker(cut.dropped) + text.slice(cut.at) : text;
}

/**
 * `ctx.system.which`: the absolute path of an executable file named `name`
 * on `PATH` (or at `name` itself when it contains a slash, relative to
 * `workdir`), else null.
 */
function findExecutable(name: string, workdir: string, path: string | undefined): string | null {
  if (name === "") return null;
  if (name.includes("/")) {
    const abs = isAbsolute(name) ? name : resolve(workdir, name);
    return isExecutableFile(abs) ? abs : null;
  }
  for (const dir of (path ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = resolve(workdir, dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
