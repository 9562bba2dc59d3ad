/**
 * Drives `rienda acp` as an editor would: the SDK's own client side
 * (`client()`, the app API that replaced `ClientSideConnection` in SDK 2)
 * over the child's stdin and stdout. Every message both ways passes through
 * a recorder that checks it against the schema the SDK ships
 * (acp-schema.ts). Permission requests are answered by the test's
 * `permissions` handler. Never imports src/.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import * as acp from "@agentclientprotocol/sdk";
import { AcpSchemaCheck } from "./acp-schema.ts";
import { BINARY, type Instance } from "./instance.ts";

/** How the test answers a permission request. */
export type PermissionAnswer = (
  request: acp.RequestPermissionRequest,
) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>;

export class AcpClient {
  readonly child: ChildProcessWithoutNullStreams;
  readonly schema = new AcpSchemaCheck();
  /** Every `session/update` received, in order. */
  readonly updates: acp.SessionNotification[] = [];
  /** Every permission request received. */
  readonly permissionRequests: acp.RequestPermissionRequest[] = [];
  /** Every line the agent wrote, parsed. */
  readonly received: Record<string, unknown>[] = [];
  stderr = "";
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Answers permission requests; allows by default. */
  permissions: PermissionAnswer = () => ({ outcome: { outcome: "selected", optionId: "allow" } });
  readonly connection: acp.ClientConnection;
  #waiters: Array<() => void> = [];

  constructor(
    inst: Instance,
    args: string[],
    options: { command?: string; cwd?: string; env?: Record<string, string> } = {},
  ) {
    this.child = spawn(options.command ?? BINARY, ["acp", ...args], {
      cwd: options.cwd ?? inst.workspace,
      env: inst.env(options.env),
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child.stderr.setEncoding("utf8").on("data", (d: string) => (this.stderr += d));
    this.exited = new Promise((resolve) => this.child.on("close", (code, signal) => resolve({ code, signal })));
    const app = acp
      .client({ name: "rienda-e2e" })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        this.updates.push(params);
        this.#wake();
      })
      .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
        this.permissionRequests.push(params);
        this.#wake();
        return this.permissions(params);
      });
    this.connection = app.connect(acp.ndJsonStream(this.#toAgent(), this.#fromAgent()));
  }

  /** The agent side of the connection: initialize, sessions, prompts. */
  get agent(): acp.ClientContext {
    return this.connection.agent;
  }

  /** `initialize` as an editor sends it. */
  initialize(capabilities: acp.ClientCapabilities = {}): Promise<acp.InitializeResponse> {
    return this.agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: capabilities,
      clientInfo: { name: "rienda-e2e", version: "1" },
    });
  }

  /** The updates of one session, from index `from` of all updates. */
  updatesOf(sessionId: string, from = 0): acp.SessionUpdate[] {
    return this.updates
      .slice(from)
      .filter((n) => n.sessionId === sessionId)
      .map((n) => n.update);
  }

  /** The agent's message text among `updates`. */
  static text(
    updates: acp.SessionUpdate[],
    kind: "agent_message_chunk" | "user_message_chunk" | "agent_thought_chunk" = "agent_message_chunk",
  ): string {
    return updates.map((u) => (u.sessionUpdate === kind && u.content.type === "text" ? u.content.text : "")).join("");
  }

  /** Waits until `match` holds (checked on every message received). */
  async until(match: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!match()) {
      if (Date.now() > deadline)
        throw new Error(
          `timed out waiting for ${what}; stderr: ${this.stderr}\nupdates: ${JSON.stringify(this.updates).slice(-3000)}`,
        );
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  /** Closes stdin and waits for the exit. */
  async close(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.stdin.end();
    return this.exited;
  }

  #wake(): void {
    for (const wake of this.#waiters.splice(0)) wake();
  }

  /** The client's writes: recorded, checked, then written to the agent's stdin. */
  #toAgent(): WritableStream<Uint8Array> {
    const decoder = new TextDecoder();
    return new WritableStream<Uint8Array>({
      write: (chunk) => {
        for (const line of decoder.decode(chunk).split("\n"))
          if (line.trim() !== "") this.schema.see("client", JSON.parse(line));
        return new Promise<void>((resolve, reject) =>
          this.child.stdin.write(chunk, (error) => (error ? reject(error) : resolve())),
        );
      },
      close: () => void this.child.stdin.end(),
    });
  }

  /** The agent's stdout: split into lines, recorded and checked, then handed to the SDK. */
  #fromAgent(): ReadableStream<Uint8Array> {
    let buffer = "";
    const encoder = new TextEncoder();
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.child.stdout.setEncoding("utf8").on("data", (text: string) => {
          buffer += text;
          let nl: number;
          while ((nl = buffer.indexOf("\n")) !== -1) {
            const line = buffer.slice(0, nl);
            buffer = buffer.slice(nl + 1);
            if (line.trim() === "") continue;
            const message = JSON.parse(line) as Record<string, unknown>;
            this.received.push(message);
            this.schema.see("agent", message);
            controller.enqueue(encoder.encode(`${line}\n`));
          }
          this.#wake();
        });
        this.child.stdout.on("end", () => controller.close());
      },
    });
  }
}
