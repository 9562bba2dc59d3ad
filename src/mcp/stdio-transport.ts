/**
 * The MCP stdio transport (newline-delimited JSON-RPC on the server's stdin
 * and stdout), written here rather than taken from the SDK because Rienda
 * needs three things the SDK's does not do: the server in its own process
 * group (ended as a whole), its stderr kept as a tail instead of printed,
 * and a record of what it wrote to stdout that is not JSON-RPC.
 *
 * The process is spawned when the transport is created, so a server boots
 * while the SDK is still loading; messages that arrive before the client
 * is attached are kept for it.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { forgetGroup, groupAlive, signalGroup, trackGroup } from "./process-groups.ts";
import { StderrTail } from "./stderr-tail.ts";

/** What starts a stdio server. */
export interface StdioLaunch {
  command: string;
  args: readonly string[];
  /** The whole environment of the process. */
  env: Record<string, string>;
  cwd: string;
}

/**
 * The longest line a server may write to stdout. A message this long is far
 * beyond any result Rienda keeps (256 KiB); without a limit, a server that
 * writes without ever ending its line would take all of Rienda's memory.
 */
export const MAX_LINE_CHARS = 64 * 1024 * 1024;

/** After stdin closes, how long a server may take to exit by itself before SIGTERM, then SIGKILL. */
const EXIT_GRACE_MS = 200;
const TERM_GRACE_MS = 300;

export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly stderr = new StderrTail();
  /** The first line on stdout that was not a JSON-RPC message, and how many there were. */
  garbage: { first: string; count: number } | undefined;
  /** How the process ended, once it has: `exit code 1`, `signal SIGSEGV`. */
  ended: string | undefined;
  /** Why Rienda ended the server itself, when it did. */
  fault: string | undefined;

  private readonly child: ChildProcessWithoutNullStreams;
  private readonly spawned: Promise<void>;
  private readonly exited: Promise<void>;
  private pending: JSONRPCMessage[] | undefined = [];
  /** Messages that arrived after a notification not yet handled (see `hand`). */
  private handing: JSONRPCMessage[] | undefined;
  /** The line being read, in pieces (joined once, when its end arrives). */
  private pieces: string[] = [];
  private pieceChars = 0;
  private readonly decoder = new TextDecoder();
  private closing = false;
  private closedNotified = false;

  constructor(launch: StdioLaunch) {
    this.child = spawn(launch.command, [...launch.args], {
      cwd: launch.cwd,
      env: launch.env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    const pid = this.child.pid;
    if (pid !== undefined) trackGroup(pid);
    this.spawned = new Promise((resolve, reject) => {
      this.child.once("spawn", () => resolve());
      this.child.once("error", (error) =>
        reject(new Error(`cannot start "${launch.command}": ${describeSpawnError(error, launch.command)}`)),
      );
    });
    this.spawned.catch(() => undefined);
    this.exited = new Promise((resolve) => {
      this.child.once("exit", (code, signal) => {
        this.ended = signal ? `signal ${signal}` : `exit code ${code ?? "unknown"}`;
        resolve();
        // A child the server left behind may hold stdout open: do not wait for it.
        setTimeout(() => {
          this.child.stdout.destroy();
          this.child.stderr.destroy();
          this.notifyClosed();
        }, EXIT_GRACE_MS).unref();
      });
      this.child.once("error", () => resolve());
    });
    this.child.stdout.on("data", (chunk: Buffer) => this.read(chunk));
    // A server that closes its stdout and lives on can never answer again: its calls would wait forever.
    this.child.stdout.once("end", () => {
      if (this.closing) return;
      setTimeout(() => {
        if (this.ended !== undefined || this.closing || this.fault) return;
        this.fault = "Rienda ended it: it closed its stdout but kept running, so it could not answer any more";
        this.kill();
      }, EXIT_GRACE_MS).unref();
    });
    this.child.stderr.on("data", (chunk: Buffer) => this.stderr.push(chunk));
    // A server that exits closes its pipes; writing to it then must not crash Rienda.
    this.child.stdin.on("error", () => undefined);
    this.child.on("close", () => this.notifyClosed());
  }

  async start(): Promise<void> {
    await this.spawned;
    const queued = this.pending ?? [];
    this.pending = undefined;
    for (const message of queued) this.hand(message);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closing || this.ended !== undefined || !this.child.stdin.writable) {
      return Promise.reject(new Error("the server is not running"));
    }
    return new Promise((resolve) => {
      if (this.child.stdin.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.child.stdin.once("drain", () => resolve());
    });
  }

  /** Closes stdin, gives the server a moment to exit, then ends its whole process group. */
  async close(): Promise<void> {
    if (this.closing) return this.exited;
    this.closing = true;
    const pid = this.child.pid;
    this.child.stdin.end();
    await settleWithin(this.exited, EXIT_GRACE_MS);
    if (pid !== undefined && groupAlive(pid)) {
      signalGroup(pid, "SIGTERM");
      if (this.ended === undefined) {
        await settleWithin(this.exited, TERM_GRACE_MS);
        if (this.ended === undefined) signalGroup(pid, "SIGKILL");
      }
      // What the server left behind has had SIGTERM; whatever ignores it gets
      // SIGKILL when Rienda exits (the group stays tracked). Not waited for
      // here: a killed child stays a zombie until something reaps it.
    } else if (pid !== undefined) {
      forgetGroup(pid);
    }
    this.child.stdout.destroy();
    this.child.stderr.destroy();
    this.notifyClosed();
  }

  /** Ends the process group at once (the server did not answer in time). */
  kill(): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    signalGroup(pid, "SIGKILL");
    forgetGroup(pid);
  }

  private read(chunk: Buffer): void {
    if (this.fault) return;
    let text = this.decoder.decode(chunk, { stream: true });
    // Only the new text is searched: a long line arriving in many chunks is read in linear time.
    let newline = text.indexOf("\n");
    while (newline >= 0) {
      this.pieces.push(text.slice(0, newline));
      const line = this.pieces.join("").replace(/\r$/, "");
      this.pieces = [];
      this.pieceChars = 0;
      if (line.trim() !== "") this.deliver(line);
      text = text.slice(newline + 1);
      newline = text.indexOf("\n");
    }
    if (text === "") return;
    this.pieces.push(text);
    this.pieceChars += text.length;
    if (this.pieceChars > MAX_LINE_CHARS) {
      this.pieces = [];
      this.fault = `Rienda ended it: it wrote a line of more than ${MAX_LINE_CHARS / 1024 / 1024} MiB to stdout`;
      this.kill();
    }
  }

  private deliver(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      message = undefined;
    }
    if (!isJsonRpc(message)) {
      if (this.garbage) this.garbage.count++;
      else this.garbage = { first: line.length > 200 ? `${line.slice(0, 200)}…` : line, count: 1 };
      return;
    }
    if (this.pending) this.pending.push(message);
    else this.hand(message);
  }

  /**
   * Hands `message` to the client in arrival order. The SDK's client handles
   * a notification a microtask later but a response at once (dropping the
   * request's progress handler): a progress notification read in the same
   * chunk as its call's result would be lost. So after a notification, what
   * follows it waits for the next turn of the event loop.
   */
  private hand(message: JSONRPCMessage): void {
    if (this.handing) {
      this.handing.push(message);
      return;
    }
    this.onmessage?.(message);
    if (isNotification(message)) this.handing = [];
    else return;
    const drain = (): void => {
      const queue = this.handing ?? [];
      while (queue.length > 0) {
        const next = queue.shift()!;
        this.onmessage?.(next);
        if (isNotification(next) && queue.length > 0) {
          setTimeout(drain, 0);
          return;
        }
      }
      this.handing = undefined;
    };
    setTimeout(drain, 0);
  }

  private notifyClosed(): void {
    if (this.closedNotified) return;
    // What the server wrote before it ended reaches the client first.
    if (this.handing) {
      setTimeout(() => this.notifyClosed(), 0);
      return;
    }
    this.closedNotified = true;
    const pid = this.child.pid;
    // The leader is gone; anything it left in its group goes with it.
    if (pid !== undefined && !this.closing) {
      if (groupAlive(pid)) signalGroup(pid, "SIGKILL");
      forgetGroup(pid);
    }
    this.onclose?.();
  }
}

function isJsonRpc(value: unknown): value is JSONRPCMessage {
  return (
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value) &&
    (value as { jsonrpc?: unknown }).jsonrpc === "2.0"
  );
}

function isNotification(message: JSONRPCMessage): boolean {
  return "method" in message && !("id" in message);
}

function describeSpawnError(error: Error, command: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return `no such command (is "${command}" installed and on PATH, or is cwd wrong?)`;
  if (code === "EACCES") return "permission denied (is it executable?)";
  return error.message;
}

function settleWithin(promise: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
