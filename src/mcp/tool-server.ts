/**
 * Rienda's tools as an MCP server (one SDK `Server` per client session):
 * `tools/list` gives each tool's description and parameters, `tools/call`
 * runs it through the one tool runner in a fresh context, exactly as in a
 * run. While it runs, `ctx.log` and process output become log messages
 * (and progress notifications when the client asked for progress),
 * `ctx.confirm` becomes an elicitation when the client supports it and is
 * answered no otherwise, and a cancelled request interrupts the call (its
 * worker and processes are ended).
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { ContextData, FrontEnd, Prompt, Tool, ToolRunner } from "../tools/index.ts";
import { VERSION } from "../version.ts";
import type { ServerSdk } from "./sdk.ts";

/** What the served tools need. */
export interface ToolServerOptions {
  tools: readonly Tool[];
  runner: ToolRunner;
  /** `ctx` data of one call; `sessionId` is the MCP session's, when the transport has one. */
  contextData(sessionId: string | undefined): ContextData;
}

/** MCP log levels, least severe first (the protocol's order). */
const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
type Level = (typeof LEVELS)[number];

/** A server for one client session, not yet connected to a transport. */
export function createToolServer(sdk: ServerSdk, options: ToolServerOptions): Server {
  const { types } = sdk;
  const server = new sdk.Server({ name: "rienda", version: VERSION }, { capabilities: { tools: {}, logging: {} } });
  const byName = new Map(options.tools.map((t) => [t.name, t]));
  // The level the client asked for with logging/setLevel; everything is sent until it does.
  let minimum: Level = "debug";

  server.setRequestHandler(types.SetLevelRequestSchema, async (request) => {
    minimum = request.params.level;
    return {};
  });

  server.setRequestHandler(types.ListToolsRequestSchema, async () => ({
    tools: options.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.parameters as { type: "object" },
    })),
  }));

  server.setRequestHandler(types.CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      throw new types.McpError(
        types.ErrorCode.InvalidParams,
        `unknown tool "${request.params.name}" (tools: ${[...byName.keys()].join(", ") || "none"})`,
      );
    }
    const progressToken = extra._meta?.progressToken;
    let progress = 0;
    // Sent as they come; the result waits for them, so that a client sees them before it.
    const sending: Promise<void>[] = [];
    const send = (level: Level, logger: string, data: string): void => {
      if (LEVELS.indexOf(level) >= LEVELS.indexOf(minimum)) {
        sending.push(
          extra
            .sendNotification({ method: "notifications/message", params: { level, logger, data } })
            .catch(() => undefined),
        );
      }
      if (progressToken !== undefined) {
        progress++;
        sending.push(
          extra
            .sendNotification({ method: "notifications/progress", params: { progressToken, progress, message: data } })
            .catch(() => undefined),
        );
      }
    };
    const confirm = async (prompt: Prompt): Promise<boolean> => {
      // Without elicitation there is nobody to ask: the documented answer is no.
      if (!server.getClientCapabilities()?.elicitation) return false;
      try {
        const answer = await server.elicitInput(
          {
            message: prompt.body === "" ? prompt.title : `${prompt.title}\n\n${prompt.body}`,
            requestedSchema: {
              type: "object",
              properties: { approve: { type: "boolean", title: "Approve", description: prompt.title } },
              required: ["approve"],
            },
          },
          { relatedRequestId: extra.requestId, signal: extra.signal },
        );
        return answer.action === "accept" && answer.content?.approve === true;
      } catch {
        return false;
      }
    };
    const frontEnd: FrontEnd = {
      log: (text) => send("info", tool.name, text),
      output: (stream, text) => send("info", `${tool.name}:${stream}`, text),
      confirm,
      notify: (prompt) =>
        send("notice", tool.name, prompt.body === "" ? prompt.title : `${prompt.title}: ${prompt.body}`),
    };
    const result = await options.runner.runTool(tool, request.params.arguments ?? {}, {
      data: options.contextData(extra.sessionId),
      frontEnd,
      signal: extra.signal,
    });
    await Promise.all(sending);
    return { content: [{ type: "text" as const, text: result.text }], isError: result.isError };
  });

  return server;
}
