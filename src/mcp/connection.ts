/**
 * One configured MCP server as Rienda uses it: started (with its startup
 * timeout), its tools listed, called, restarted once after a crash, closed.
 * Every failure is a value or a RiendaError naming the server; the values of
 * its `env` and `headers` never appear in a message.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpServerSettings } from "../config/index.ts";
import { RiendaError } from "../errors.ts";
import type { ToolCallContext, ToolResult } from "../tools/index.ts";
import { resultText, type McpCallResult } from "./result-text.ts";
import { listAllTools, type McpToolInfo, type ResultSchema } from "./list-tools.ts";
import { loadClientSdk, loadHttpClientTransport } from "./sdk.ts";
import { describeError, httpStatus } from "./sdk-errors.ts";
import { INHERITED, serverEnvironment } from "./server-env.ts";
import { StdioTransport } from "./stdio-transport.ts";
import { headerSecret, hideSecrets } from "../values.ts";
import { VERSION } from "../version.ts";

/** Where the server runs. */
export interface ConnectionOptions {
  /** Default cwd of a stdio server: the run's workspace. */
  workdir: string;
  /** Rienda's environment (a stdio server inherits a few of its variables). */
  env: Readonly<Record<string, string | undefined>>;
  /** config.yaml, for messages. */
  configPath: string;
  /** Aborting it ends a start in progress (an interrupt). */
  signal?: AbortSignal;
}

/** starting → ready; ready → crashed (the process or connection ended by itself) → ready again once; anything → closed. */
export type ConnectionState = "idle" | "starting" | "ready" | "failed" | "crashed" | "closed";

/** Variables that are no secrets: the ones every server inherits, the working directories, the XDG directories. */
function isPlaceVariable(name: string): boolean {
  return (
    (INHERITED as readonly string[]).includes(name) || name === "PWD" || name === "OLDPWD" || /^XDG_[A-Z_]+$/.test(name)
  );
}

/** How long ending an HTTP server's session may delay Rienda's end. */
const SESSION_END_WAIT_MS = 1000;

/** A call has no time limit, like a JavaScript tool's (the SDK's default is 60 s). */
const NO_TIMEOUT_MS = 2_147_483_647;

export class McpConnection {
  state: ConnectionState = "idle";
  tools: McpToolInfo[] = [];
  /** Why listed tools were left out (a tool without a usable input schema), for notices. */
  leftOut: string[] = [];
  /** Counts the tool lists read: it changes whenever `tools` does. */
  toolsVersion = 0;
  /** Why the last start failed (for `tool list` and doctor). */
  failure: string | undefined;

  private client: Client | undefined;
  private transport: Transport | undefined;
  private stdio: StdioTransport | undefined;
  private restarted = false;
  /** A re-read of the tool list the server asked for, while it runs. */
  private rereading: Promise<void> | undefined;
  private readonly secrets: string[];
  /** Calls in flight, newest last: a log message goes to the newest. */
  private readonly active: { context: ToolCallContext; lastLog?: string }[] = [];

  constructor(
    readonly settings: McpServerSettings,
    private readonly options: ConnectionOptions,
  ) {
    // A header's value, and its token alone (`Bearer <token>`): a server may quote either back.
    const values =
      settings.transport === "stdio"
        ? Object.values(settings.env)
        : Object.values(settings.headers).flatMap((v) => [v, headerSecret(v)]);
    // What `${NAME}` put into the entry (a token in a URL or an argument) is
    // hidden too, but for the variables that name places or the user (HOME,
    // PWD, XDG_*_HOME, ...): a filesystem server given `${PWD}` would show
    // every path as ***.
    const expanded = settings.expanded.filter((e) => !isPlaceVariable(e.variable)).map((e) => e.value);
    // A value of 3 characters or fewer is not hidden: it would hide every such word.
    this.secrets = [...new Set([...values, ...expanded])].filter((v) => v.length >= 4);
  }

  get name(): string {
    return this.settings.name;
  }

  /** How the server is reached, for listings: `stdio: node` or the URL. */
  describe(): string {
    return this.settings.transport === "stdio"
      ? `stdio: ${this.hide(this.settings.command)}`
      : `http: ${this.hide(this.settings.url)}`;
  }

  /**
   * Starts the server and lists its tools within the startup timeout.
   * Throws a RiendaError naming the server, with its stderr tail.
   */
  async start(): Promise<void> {
    this.state = "starting";
    const unset = this.settings.unset[0];
    if (unset) {
      this.state = "failed";
      this.failure = `environment variable ${unset.variable} is not set (${this.options.configPath}: ${unset.path})`;
      throw new RiendaError("extension", `MCP server "${this.name}": ${this.failure}`);
    }
    const timeoutMs = this.settings.startupTimeoutMs;
    let phase = "start";
    // The process starts before the SDK has loaded: both take time, so they overlap.
    const transportReady = this.openTransport();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const signal = this.options.signal;
    let onAbort: (() => void) | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `timed out after ${timeoutMs} ms (startup_timeout_ms) waiting for ${phase === "start" ? "the server to start" : `its answer to "${phase}"`}`,
            ),
          ),
        timeoutMs,
      );
      onAbort = () => reject(new Error("interrupted while it started"));
      if (signal?.aborted) onAbort();
      else signal?.addEventListener("abort", onAbort, { once: true });
    });
    try {
      await Promise.race([
        (async () => {
          const [{ Client, types, lazyValidator }, transport] = await Promise.all([loadClientSdk(), transportReady]);
          const client = new Client(
            { name: "rienda", version: VERSION },
            { capabilities: {}, jsonSchemaValidator: lazyValidator() },
          );
          client.setNotificationHandler(types.LoggingMessageNotificationSchema, (notification) => {
            const { level, logger, data } = notification.params;
            const text = typeof data === "string" ? data : JSON.stringify(data);
            const call = this.active.at(-1);
            if (!call) return;
            call.lastLog = text;
            call.context.frontEnd.log(`[${level}]${logger ? ` ${logger}:` : ""} ${this.hide(text)}`);
          });
          client.setNotificationHandler(types.ToolListChangedNotificationSchema, () =>
            this.rereadTools(client, types.ResultSchema),
          );
          client.onclose = () => {
            if (this.state === "ready") this.state = "crashed";
          };
          // Protocol noise (a line that is not JSON-RPC, a response to nothing) is not the user's business.
          client.onerror = () => undefined;
          phase = "initialize";
          await client.connect(transport, { timeout: NO_TIMEOUT_MS });
          // The deadline or an interrupt may have ended this start meanwhile.
          if (this.state !== "starting") {
            await client.close().catch(() => undefined);
            return;
          }
          this.client = client;
          phase = "tools/list";
          ({ tools: this.tools, leftOut: this.leftOut } = await listAllTools(
            client,
            types.ResultSchema,
            NO_TIMEOUT_MS,
          ));
          this.toolsVersion++;
        })(),
        deadline,
      ]);
      this.state = "ready";
      this.failure = undefined;
    } catch (error) {
      this.state = "failed";
      this.failure = this.explainStartFailure(error);
      await this.shutdown();
      throw new RiendaError("extension", `MCP server "${this.name}" failed to start: ${this.failure}`);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Calls one tool (by the server's own name); never throws. */
  async call(
    tool: string,
    args: Record<string, unknown>,
    context: ToolCallContext,
    again = false,
  ): Promise<ToolResult> {
    if (this.state === "crashed") {
      const why = this.endedText();
      if (this.restarted) return this.error(`stopped again${why}; it is restarted only once per run`);
      this.restarted = true;
      try {
        await this.shutdown();
        await this.start();
      } catch {
        return this.error(`stopped${why} and could not be restarted: ${this.failure ?? "unknown reason"}`);
      }
    }
    const client = this.client;
    if (this.state !== "ready" || !client)
      return this.error(this.failure ? `is not running: ${this.failure}` : "is not running");
    if (context.signal.aborted) return { text: "the tool was interrupted", isError: true };
    const call: { context: ToolCallContext; lastLog?: string } = { context };
    this.active.push(call);
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, {
        signal: context.signal,
        timeout: NO_TIMEOUT_MS,
        onprogress: (progress) => {
          // A server that reports each log line as progress too (Rienda does) is shown once.
          if (progress.message !== undefined && progress.message === call.lastLog) return;
          const total = progress.total !== undefined ? `/${progress.total}` : "";
          const message = progress.message ? ` ${this.hide(progress.message)}` : "";
          context.frontEnd.log(`progress ${progress.progress}${total}${message}`);
        },
      });
      const converted = resultText(result as McpCallResult);
      // A call that changed the server's tools: the next request offers the new list.
      await this.rereading;
      return { text: this.hide(converted.text), isError: converted.isError };
    } catch (error) {
      if (context.signal.aborted) return { text: "the tool was interrupted", isError: true };
      // The connection's end is seen before the call's rejection (see client.onclose).
      if ((this.state as ConnectionState) === "crashed")
        return this.error(`stopped during the call${this.endedText()}; the next call restarts it`);
      // An HTTP server that answers 404 to a session has forgotten it (it
      // restarted): MCP asks for a new session. The call never ran there, so
      // it is sent again, over a new session (the one restart of the run).
      if (!again && !this.restarted && this.settings.transport === "http" && httpStatus(error) === 404) {
        this.state = "crashed";
        return this.call(tool, args, context, true);
      }
      return this.error(`error: ${this.hide(describeError(error))}`);
    } finally {
      this.active.splice(this.active.indexOf(call), 1);
    }
  }

  /**
   * The server said its tools changed (`notifications/tools/list_changed`):
   * they are listed again, each page within startup_timeout_ms (a call
   * waits for it); a list that cannot be read leaves the old one.
   */
  private rereadTools(client: Client, anyResult: ResultSchema): void {
    const previous = this.rereading ?? Promise.resolve();
    const reread = previous.then(async () => {
      if (this.client !== client || this.state !== "ready") return;
      try {
        ({ tools: this.tools, leftOut: this.leftOut } = await listAllTools(
          client,
          anyResult,
          this.settings.startupTimeoutMs,
        ));
        this.toolsVersion++;
      } catch {
        // The server stopped or answered nonsense: the calls will say so.
      }
    });
    this.rereading = reread;
    void reread.then(() => {
      if (this.rereading === reread) this.rereading = undefined;
    });
  }

  /** Ends the connection and the server's processes. */
  async close(): Promise<void> {
    this.state = "closed";
    await this.shutdown();
  }

  private async openTransport(): Promise<Transport> {
    const s = this.settings;
    if (s.transport === "stdio") {
      const stdio = new StdioTransport({
        command: s.command,
        args: s.args,
        env: serverEnvironment(this.options.env, s.env),
        cwd: s.cwd ?? this.options.workdir,
      });
      this.stdio = stdio;
      this.transport = stdio;
      return stdio;
    }
    this.stdio = undefined;
    const { StreamableHTTPClientTransport } = await loadHttpClientTransport();
    const transport = new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: s.headers } });
    this.transport = transport;
    return transport;
  }

  private async shutdown(): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    this.client = undefined;
    this.transport = undefined;
    // An HTTP server keeps a session until told it is over (a long-running
    // server would otherwise gather one per run): a DELETE, given a moment.
    const http = transport as { sessionId?: string; terminateSession?: () => Promise<void> } | undefined;
    if (client && http?.sessionId !== undefined && http.terminateSession) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        http.terminateSession().catch(() => undefined),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, SESSION_END_WAIT_MS))),
      ]);
      clearTimeout(timer);
    }
    try {
      if (client) await client.close();
      else if (transport) await transport.close();
    } catch {
      // Already gone.
    }
    this.stdio?.kill();
  }

  private explainStartFailure(error: unknown): string {
    let text = this.hide(describeError(error));
    const stdio = this.stdio;
    if (stdio?.ended !== undefined && /Connection closed|not running/i.test(text))
      text = `the server exited (${stdio.ended})`;
    if (stdio?.fault) text += `; ${stdio.fault}`;
    if (stdio?.garbage) {
      const { first, count } = stdio.garbage;
      text += `; it wrote ${count === 1 ? "a line" : `${count} lines`} to stdout that ${count === 1 ? "is" : "are"} not JSON-RPC, the first: ${JSON.stringify(this.hide(first))} (a stdio server must write only protocol messages to stdout, and its logs to stderr)`;
    }
    const tail = stdio?.stderr.lines();
    if (tail) text += `\nstderr of "${this.name}":\n${indent(this.hide(tail))}`;
    return text;
  }

  private endedText(): string {
    const stdio = this.stdio;
    if (!stdio) return "";
    const tail = stdio.stderr.lines(5);
    return `${stdio.ended ? ` (${stdio.ended})` : ""}${stdio.fault ? `; ${stdio.fault}` : ""}${tail ? `; its stderr ends with:\n${indent(this.hide(tail))}` : ""}`;
  }

  private error(what: string): ToolResult {
    return { text: `MCP server "${this.name}" ${what}`, isError: true };
  }

  /** The text with every env and header value of this server (and every `${NAME}` value of its entry) replaced by `***`. */
  hide(text: string): string {
    return hideSecrets(text, this.secrets);
  }
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}
