/**
 * `rienda mcp serve`'s transports: stdio (one client, on this process's
 * stdin and stdout) or Streamable HTTP on a loopback address (one server
 * per client session, told apart by the Mcp-Session-Id header). Over HTTP
 * every request carries the bearer token, and sessions are bounded in
 * number and idle time (http-sessions.ts).
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { RiendaError } from "../errors.ts";
import { bearerChecker } from "./bearer-auth.ts";
import { durationText } from "../limits/index.ts";
import { HttpSessions } from "./http-sessions.ts";
import { isLoopbackHost } from "./listen-address.ts";
import { loadServerSdk } from "./sdk.ts";
import { createToolServer, type ToolServerOptions } from "./tool-server.ts";

/**
 * Serves over stdin/stdout; resolves when the client has closed stdin and
 * every request it sent has been answered (or cancelled), when the client
 * process has gone away with requests unanswered, or at once when `signal`
 * aborts. The caller ends the calls still running.
 */
export async function serveStdio(options: ToolServerOptions, signal: AbortSignal): Promise<void> {
  const sdk = await loadServerSdk();
  const server = createToolServer(sdk, options);
  const transport = new sdk.StdioServerTransport();
  await server.connect(transport);
  // A client that sends its last request and closes stdin at once still gets the answer.
  const pending = new Set<string | number>();
  let inputEnded = false;
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const settle = () => {
    if (inputEnded && pending.size === 0) finish();
  };
  const receive = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if ("method" in message && "id" in message) pending.add(message.id);
    if ("method" in message && message.method === "notifications/cancelled") {
      pending.delete((message.params as { requestId?: string | number } | undefined)?.requestId ?? "");
    }
    receive?.(message);
    settle();
  };
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage) => {
    await send(message);
    if (!("method" in message) && "id" in message && message.id !== undefined) pending.delete(message.id);
    settle();
  };
  // A client that dies mid-call closes stdin as one saying goodbye does, but
  // nobody will read the answers: once the process that started Rienda is
  // gone (Rienda was handed to another parent), the calls end with it.
  const parent = process.ppid;
  let watch: ReturnType<typeof setInterval> | undefined;
  const ended = () => {
    inputEnded = true;
    settle();
    watch ??= setInterval(() => {
      if (process.ppid !== parent) finish();
    }, CLIENT_WATCH_MS);
  };
  server.onclose = finish;
  process.stdin.once("end", ended);
  process.stdin.once("close", ended);
  signal.addEventListener("abort", finish, { once: true });
  await finished;
  clearInterval(watch);
  await server.close().catch(() => undefined);
}

/** How often, once stdin has closed with calls in flight, Rienda looks whether the client is still there. */
const CLIENT_WATCH_MS = 200;

/** A running HTTP server. */
export interface HttpServing {
  /** `http://127.0.0.1:PORT/mcp`. */
  url: string;
  /** Stops accepting, closes every session. */
  close(): Promise<void>;
}

/** What stands between the port and the tools. */
export interface HttpGuard {
  /** The bearer token every request must carry (serve-token.ts). */
  token: string;
  /** A session with no open request for this long is closed. */
  idleMs: number;
  /** Sessions that may exist at once; a new one beyond is refused (503). */
  maxSessions: number;
  /** Writes a line for the user (stderr). */
  report(line: string): void;
}

type HttpTransport = Transport & { handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> };

/** Serves Streamable HTTP at `/mcp` on host:port (port 0: any free one). */
export async function serveHttp(
  options: ToolServerOptions,
  address: { host: string; port: number },
  guard: HttpGuard,
): Promise<HttpServing> {
  const sdk = await loadServerSdk();
  // Closing the transport aborts the session's requests in flight: a running call ends its worker and processes, as on cancel.
  const sessions = new HttpSessions<{ transport: HttpTransport }>(
    { maxSessions: guard.maxSessions, idleMs: guard.idleMs },
    (id, session) => {
      guard.report(`closed MCP session ${id.slice(0, 8)}…, idle for ${durationText(guard.idleMs)} (--idle-timeout)`);
      void session.transport.close().catch(() => undefined);
    },
  );
  const authorized = bearerChecker(guard.token);
  // Said once until a place frees up, so that a client retrying in a loop does not flood stderr.
  let refusalReported = false;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (refusedAtTheDoor(req, res, authorized)) return;
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path !== "/mcp")
      return void res.writeHead(404, { "content-type": "text/plain" }).end("not found: the MCP endpoint is /mcp\n");
    const header = req.headers["mcp-session-id"];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      // Unknown, ended or closed as idle: 404 tells the client to initialize a new session (MCP, Streamable HTTP).
      if (!session) return void jsonRpcError(res, 404, -32001, "Session not found");
      sessions.hold(sessionId, res);
      return session.transport.handleRequest(req, res);
    }
    if (req.method !== "POST")
      return void jsonRpcError(res, 400, -32000, "Bad Request: no Mcp-Session-Id header (send initialize first)");
    if (!sessions.reserve()) {
      if (!refusalReported)
        guard.report(
          `refused a new MCP session: ${guard.maxSessions} are open (--max-sessions); idle ones close after ${durationText(guard.idleMs)}`,
        );
      refusalReported = true;
      return void jsonRpcError(
        res,
        503,
        -32000,
        `Too many sessions: ${guard.maxSessions} are open, the limit of this server (rienda mcp serve --max-sessions); end one (DELETE) or wait until one idle for ${durationText(guard.idleMs)} is closed`,
      );
    }
    refusalReported = false;
    // A request without a session starts one; the transport refuses anything but initialize.
    let added = false;
    const transport: HttpTransport = new sdk.HttpServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        added = true;
        sessions.add(id, { transport });
        sessions.hold(id, res);
      },
      onsessionclosed: (id) => sessions.delete(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    try {
      const server = createToolServer(sdk, options);
      await server.connect(transport);
      await transport.handleRequest(req, res);
    } finally {
      if (!added) sessions.unreserve();
    }
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) jsonRpcError(res, 500, -32603, error instanceof Error ? error.message : String(error));
      else res.end();
    });
  });
  await listen(http, address);
  const port = (http.address() as AddressInfo).port;
  const host = address.host.includes(":") ? `[${address.host}]` : address.host;
  return {
    url: `http://${host}:${port}/mcp`,
    async close() {
      await Promise.all(sessions.drain().map((s) => s.transport.close().catch(() => undefined)));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/**
 * Answers 403 or 401 and says true unless the request may reach the tools:
 * a loopback Host (and Origin, if any) and the bearer token.
 */
function refusedAtTheDoor(
  req: IncomingMessage,
  res: ServerResponse,
  authorized: ReturnType<typeof bearerChecker>,
): boolean {
  // A web page must not reach the tools through the browser (DNS rebinding): loopback names only.
  if (
    !isLoopbackHost(hostnameOf(req.headers.host)) ||
    (req.headers.origin !== undefined && !isLoopbackHost(hostnameOf(req.headers.origin)))
  ) {
    jsonRpcError(res, 403, -32000, "Forbidden: only loopback hosts and origins may use this server");
    return true;
  }
  // Any local user or process reaches a loopback port: nothing is read or routed before the token is checked.
  const verdict = authorized(req.headers.authorization);
  if (verdict === "ok") return false;
  const challenge =
    verdict === "missing" ? `Bearer realm="${REALM}"` : `Bearer realm="${REALM}", error="invalid_token"`;
  res.setHeader("www-authenticate", challenge);
  jsonRpcError(
    res,
    401,
    -32000,
    `Unauthorized: ${verdict === "missing" ? "send" : "a wrong token; send"} Authorization: Bearer <token> with the token of rienda mcp serve (by default in ~/.rienda/mcp-token; its stderr says where)`,
  );
  return true;
}

/** Starts listening; a port in use (or any other failure to listen) is a usage error naming the address. */
function listen(http: Server, address: { host: string; port: number }): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    http.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new RiendaError(
          "usage",
          `mcp serve: cannot listen on ${address.host}:${address.port}: ${error.code === "EADDRINUSE" ? "the port is in use" : error.message}`,
        ),
      ),
    );
    http.listen(address.port, address.host, () => resolve());
  });
}

/** The realm of the 401 challenge. */
const REALM = "rienda mcp serve";

/** The host name of a Host header (`127.0.0.1:8931`, `[::1]:80`) or an Origin (`http://localhost:3000`). */
function hostnameOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    const url = new URL(value.includes("://") ? value : `http://${value}`);
    return url.hostname.replace(/^\[|\]$/g, "");
  } catch {
    return undefined;
  }
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res
    .writeHead(status, { "content-type": "application/json" })
    .end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}
