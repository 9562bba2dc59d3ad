/**
 * Builds a throwaway Rienda installation for one e2e test: its own HOME with
 * ~/.rienda, its own workspace, and helpers to run the compiled binary as a
 * black box. Never imports src/: it speaks only the external contract.
 */
import { closeSync, mkdtempSync, mkdirSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { spawn } from "node:child_process";

/** Path of the binary under test: RIENDA_BINARY, else dist/rienda of this checkout. */
export const BINARY = process.env.RIENDA_BINARY ?? resolve(import.meta.dir, "../../dist/rienda");

/**
 * The tests run against Rienda from source under Deno (`make test-deno`),
 * where a few protections Bun's worker gives are missing (docs/runtime.md,
 * "Deno"): tests of those skip there.
 */
export const UNDER_DENO = BINARY.endsWith("rienda-deno.sh");

/** What one run of the binary produced. */
export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Options of one run. */
export interface RunOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  stdin?: string;
  /**
   * stdin as a real pipe (what a shell's `|` gives, unlike the socket of
   * `stdin`): a shell writes these bytes into it, after `pipeDelayMs`, then
   * closes it.
   */
  stdinPipe?: string | Uint8Array;
  pipeDelayMs?: number;
  /** stdin as a regular file holding these bytes (`< file`). */
  stdinFile?: string | Uint8Array;
  /** stdin as this open file descriptor (a FIFO held open: a stdin that never closes); the caller closes it. */
  stdinFd?: number;
  /** Kill the process (SIGKILL) after this many ms; the test fails on its own assertions. */
  killAfterMs?: number;
}

/** A temp HOME + workspace pair with writers for the files Rienda reads. */
export class Instance {
  readonly root: string;
  readonly home: string;
  readonly workspace: string;

  constructor() {
    this.root = mkdtempSync(join(tmpdir(), "rienda-e2e-"));
    this.home = join(this.root, "home");
    this.workspace = join(this.root, "work");
    mkdirSync(join(this.home, ".rienda"), { recursive: true });
    mkdirSync(this.workspace, { recursive: true });
  }

  /** Absolute path inside ~/.rienda. */
  riendaPath(...parts: string[]): string {
    return join(this.home, ".rienda", ...parts);
  }

  /** Writes a file (creating parents) and returns its absolute path. */
  write(path: string, content: string): string {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    return path;
  }

  /** Writes ~/.rienda/config.yaml. */
  config(yaml: string): string {
    return this.write(this.riendaPath("config.yaml"), yaml);
  }

  /** Writes ~/.rienda/agents/<id>.md. */
  agent(id: string, markdown: string): string {
    return this.write(this.riendaPath("agents", `${id}.md`), markdown);
  }

  /** Writes ~/.rienda/tools/<name>/index.js. */
  tool(name: string, source: string): string {
    return this.write(this.riendaPath("tools", name, "index.js"), source);
  }

  /** Writes ~/.rienda/hooks/<name>/index.js. */
  hook(name: string, source: string): string {
    return this.write(this.riendaPath("hooks", name, "index.js"), source);
  }

  /** Writes a file in the workspace. */
  file(relative: string, content: string): string {
    return this.write(join(this.workspace, relative), content);
  }

  /** The environment the binary runs with: a clean HOME, no colours, no CI leakage. */
  env(extra: Record<string, string | undefined> = {}): Record<string, string> {
    const base: Record<string, string | undefined> = {
      PATH: process.env.PATH,
      HOME: this.home,
      TMPDIR: process.env.TMPDIR,
      LANG: "C.UTF-8",
      NO_COLOR: "1",
      ...extra,
    };
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(base)) if (v !== undefined) env[k] = v;
    return env;
  }

  /** Runs the binary to completion. */
  run(args: string[], options: RunOptions = {}): Promise<RunResult> {
    const child = this.start(args, options);
    return child.done;
  }

  /** Starts the binary and returns the live process with a promise of its result. */
  start(args: string[], options: RunOptions = {}): Started {
    let command = BINARY;
    let argv = args;
    let stdinFd: number | undefined;
    let ownFd = true;
    if (options.stdinFd !== undefined) {
      stdinFd = options.stdinFd;
      ownFd = false;
    } else if (options.stdinPipe !== undefined) {
      const data = join(this.root, `stdin-${Date.now()}-${Math.random().toString(36).slice(2)}`);
      writeFileSync(data, options.stdinPipe);
      const delay = ((options.pipeDelayMs ?? 0) / 1000).toFixed(3);
      command = "sh";
      argv = ["-c", `{ sleep ${delay}; cat "$0"; } | "$@"`, data, BINARY, ...args];
    } else if (options.stdinFile !== undefined) {
      const data = join(this.root, `stdin-${Date.now()}-${Math.random().toString(36).slice(2)}`);
      writeFileSync(data, options.stdinFile);
      stdinFd = openSync(data, "r");
    }
    const child = spawn(command, argv, {
      cwd: options.cwd ?? this.workspace,
      env: this.env(options.env),
      stdio: [stdinFd ?? "pipe", "pipe", "pipe"],
    });
    if (stdinFd !== undefined && ownFd) closeSync(stdinFd);
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    if (child.stdin) {
      if (options.stdin !== undefined) child.stdin.end(options.stdin);
      else child.stdin.end();
    }
    const timer = options.killAfterMs ? setTimeout(() => child.kill("SIGKILL"), options.killAfterMs) : undefined;
    const done = new Promise<RunResult>((resolveRun) => {
      child.on("close", (code, signal) => {
        if (timer) clearTimeout(timer);
        resolveRun({ code, signal, stdout, stderr });
      });
    });
    return {
      pid: child.pid ?? -1,
      done,
      kill: (signal: NodeJS.Signals = "SIGINT") => child.kill(signal),
      stdout: () => stdout,
      stderr: () => stderr,
    };
  }

  /** Removes every file of the instance. */
  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** A running binary. */
export interface Started {
  pid: number;
  done: Promise<RunResult>;
  kill(signal?: NodeJS.Signals): boolean;
  stdout(): string;
  stderr(): string;
}

/** Waits until `predicate` holds, polling every 10 ms, or fails after `timeoutMs`. */
export async function waitFor(predicate: () => boolean, timeoutMs = 10_000, what = "condition"): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
