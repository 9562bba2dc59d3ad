/**
 * Drives `rienda rpc` as a program would: writes commands on its stdin,
 * reads its lines from stdout, and waits for lines that match. Every line
 * seen and sent is kept, so a test can check them all against the schema.
 * Never imports src/.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { BINARY, type Instance } from "./instance.ts";

export type RpcLine = Record<string, unknown> & { type: string };

export class RpcDriver {
  readonly lines: RpcLine[] = [];
  readonly sent: string[] = [];
  readonly child: ChildProcessWithoutNullStreams;
  stderr = "";
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  #buffer = "";
  #waiters: Array<() => void> = [];

  constructor(inst: Instance, args: string[], env: Record<string, string | undefined> = {}) {
    this.child = spawn(BINARY, ["rpc", ...args], {
      cwd: inst.workspace,
      env: inst.env(env),
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      this.#buffer += chunk;
      let nl: number;
      while ((nl = this.#buffer.indexOf("\n")) !== -1) {
        const line = this.#buffer.slice(0, nl);
        this.#buffer = this.#buffer.slice(nl + 1);
        this.lines.push(JSON.parse(line) as RpcLine);
      }
      for (const wake of this.#waiters.splice(0)) wake();
    });
    this.child.stderr.setEncoding("utf8").on("data", (d: string) => (this.stderr += d));
    this.exited = new Promise((resolve) => this.child.on("close", (code, signal) => resolve({ code, signal })));
  }

  /** Sends one command (an object is JSON-encoded; a string is sent as it is). */
  send(command: Record<string, unknown> | string): void {
    const line = typeof command === "string" ? command : JSON.stringify(command);
    this.sent.push(line);
    this.child.stdin.write(`${line}\n`);
  }

  /** The first line (from index `from` on) that matches, waiting for it. */
  async waitFor(match: (line: RpcLine) => boolean, what = "a line", timeoutMs = 15_000, from = 0): Promise<RpcLine> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.lines.slice(from).find(match);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(
          `timed out waiting for ${what}; lines so far:\n${this.lines.map((l) => JSON.stringify(l)).join("\n")}\nstderr: ${this.stderr}`,
        );
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  /** The response to command `id`. */
  response(id: string | number): Promise<RpcLine> {
    return this.waitFor((l) => l.type === "response" && l.id === id, `the response to ${id}`);
  }

  /** The run_end of the run command `id` started. */
  runEnd(id: string | number): Promise<RpcLine> {
    return this.waitFor((l) => l.type === "run_end" && l.command_id === id, `run_end of ${id}`);
  }

  /** Every line tagged with command `id`. */
  eventsOf(id: string | number): RpcLine[] {
    return this.lines.filter((l) => l.command_id === id);
  }

  /** Closes stdin (EOF) and waits for the exit. */
  async close(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.stdin.end();
    return this.exited;
  }
}
