/**
 * The usual e2e setup: a scripted provider, a temp instance whose config
 * points at it with a chosen protocol, and an agent. Speaks only the
 * external contract (files, argv, HTTP); never imports src/.
 */
import { Instance } from "./instance.ts";
import {
  startProviderServer,
  type ProviderServer,
  type RecordedRequest,
  type WireProtocol,
} from "./provider-server.ts";

/** The three streaming protocols, for tests that cover each. */
export const PROTOCOLS: readonly WireProtocol[] = ["openai_chat_completions", "openai_responses", "anthropic"];

/** Options of a scenario. */
export interface ScenarioOptions {
  protocol?: WireProtocol;
  /** Extra YAML lines inside the provider block (indented by the caller as 4 spaces). */
  providerExtra?: string;
  /** Extra YAML lines inside the model block (6 spaces). */
  modelExtra?: string;
  /** Top-level YAML appended to config.yaml. */
  configExtra?: string;
  /** Frontmatter lines of the agent "coder" besides description and model. */
  agentFrontmatter?: string;
  agentBody?: string;
}

/** A ready instance + provider. */
export interface Scenario {
  inst: Instance;
  server: ProviderServer;
  dispose(): Promise<void>;
}

/** Builds the config text for one provider `p` with one model `m` (wire id `wire-model`). */
export function configFor(url: string, options: ScenarioOptions = {}): string {
  const protocol = options.protocol ?? "openai_chat_completions";
  const base = protocol === "anthropic" ? url : `${url}/v1`;
  return [
    "providers:",
    "  p:",
    `    protocol: ${protocol}`,
    `    base_url: ${base}`,
    "    api_key: test-key",
    ...(options.providerExtra ? [options.providerExtra] : []),
    "    models:",
    "      m:",
    "        id: wire-model",
    ...(options.modelExtra ? [options.modelExtra] : []),
    ...(options.configExtra ? [options.configExtra] : []),
    "",
  ].join("\n");
}

/** Starts a provider and writes config + agent `coder` (model p/m). */
export async function scenario(options: ScenarioOptions = {}): Promise<Scenario> {
  const server = await startProviderServer();
  const inst = new Instance();
  inst.config(configFor(server.url, options));
  inst.agent(
    "coder",
    [
      "---",
      "description: A test agent.",
      "model: p/m",
      ...(options.agentFrontmatter ? [options.agentFrontmatter] : []),
      "---",
      options.agentBody ?? "You are a test agent.",
      "",
    ].join("\n"),
  );
  return {
    inst,
    server,
    async dispose() {
      await server.close();
      inst.dispose();
    },
  };
}

/** The system prompt a request carried, whatever the protocol. */
export function systemOf(request: RecordedRequest): string {
  const body = request.body as Record<string, unknown>;
  if (request.protocol === "anthropic") {
    const system = body.system;
    if (typeof system === "string") return system;
    if (Array.isArray(system)) return system.map((b) => (b as { text: string }).text).join("");
    return "";
  }
  if (request.protocol === "openai_responses") return String(body.instructions ?? "");
  const messages = body.messages as { role: string; content: unknown }[];
  const first = messages.find((m) => m.role === "system" || m.role === "developer");
  return typeof first?.content === "string" ? first.content : "";
}

/** Every tool result text a request sent back, whatever the protocol. */
export function toolResultsOf(request: RecordedRequest): string[] {
  const body = request.body as Record<string, unknown>;
  if (request.protocol === "anthropic") {
    const messages = body.messages as { role: string; content: unknown }[];
    return messages.flatMap((m) =>
      Array.isArray(m.content)
        ? m.content
            .filter((b) => (b as { type: string }).type === "tool_result")
            .map((b) => {
              const content = (b as { content: unknown }).content;
              return typeof content === "string"
                ? content
                : (content as { text: string }[]).map((c) => c.text).join("");
            })
        : [],
    );
  }
  if (request.protocol === "openai_responses") {
    const input = body.input as { type?: string; output?: string }[];
    return input.filter((i) => i.type === "function_call_output").map((i) => String(i.output));
  }
  const messages = body.messages as { role: string; content: unknown }[];
  return messages
    .filter((m) => m.role === "tool")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

/** The tool names a request offered (empty when the field is absent). */
export function toolNamesOf(request: RecordedRequest): string[] | undefined {
  const tools = (request.body as { tools?: unknown[] }).tools;
  if (tools === undefined) return undefined;
  return tools.map((t) => {
    const tool = t as { name?: string; function?: { name: string } };
    return tool.name ?? tool.function?.name ?? "";
  });
}

/** One `--json` event as a test reads it. */
export type JsonEvent = Record<string, unknown> & { type: string };

/** The events of a `--json` run's stdout, one per line. */
export function jsonEvents(stdout: string): JsonEvent[] {
  return stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as JsonEvent);
}

/** An `mcp_servers:` block for `configExtra`; each entry is YAML flow text. */
export function mcpServers(entries: Record<string, string>): string {
  return ["mcp_servers:", ...Object.entries(entries).map(([name, body]) => `  ${name}: ${body}`)].join("\n");
}

/** The flow text of a stdio MCP server run by `node script args`; `extra` adds keys (", startup_timeout_ms: 1000"). */
export function nodeMcpServer(script: string, args: string[] = [], extra = ""): string {
  return `{ command: node, args: ${JSON.stringify([script, ...args])}${extra} }`;
}
