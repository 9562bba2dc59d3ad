/**
 * The official MCP SDK, loaded on first use only: it is large (zod schemas
 * for the whole protocol), and a run or a `--version` without MCP servers
 * must not pay for it. Nothing else in Rienda imports the SDK's code.
 */
import type * as ClientModule from "@modelcontextprotocol/sdk/client/index.js";
import type * as HttpClientModule from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type * as ServerModule from "@modelcontextprotocol/sdk/server/index.js";
import type * as StdioServerModule from "@modelcontextprotocol/sdk/server/stdio.js";
import type * as HttpServerModule from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type * as TypesModule from "@modelcontextprotocol/sdk/types.js";
import type * as AjvValidatorModule from "@modelcontextprotocol/sdk/validation/ajv";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";

/** What the client side uses. */
export interface ClientSdk {
  Client: typeof ClientModule.Client;
  types: typeof TypesModule;
  /** A JSON Schema validator for the client that builds its ajv instance only when a schema needs it. */
  lazyValidator(): jsonSchemaValidator;
}

let clientSdk: Promise<ClientSdk> | undefined;
let httpClient: Promise<typeof HttpClientModule> | undefined;

/** The client and the protocol's types. */
export function loadClientSdk(): Promise<ClientSdk> {
  return (clientSdk ??= Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/types.js"),
    import("@modelcontextprotocol/sdk/validation/ajv"),
  ]).then(([client, types, ajv]) => ({ Client: client.Client, types, lazyValidator: () => lazyValidator(ajv) })));
}

/** The Streamable HTTP client transport (only servers with a `url` need it). */
export function loadHttpClientTransport(): Promise<typeof HttpClientModule> {
  return (httpClient ??= import("@modelcontextprotocol/sdk/client/streamableHttp.js"));
}

/** What `rienda mcp serve` uses. */
export interface ServerSdk {
  Server: typeof ServerModule.Server;
  StdioServerTransport: typeof StdioServerModule.StdioServerTransport;
  HttpServerTransport: typeof HttpServerModule.StreamableHTTPServerTransport;
  types: typeof TypesModule;
}

/** The server side and the protocol's types. */
export async function loadServerSdk(): Promise<ServerSdk> {
  const [server, stdio, http, types] = await Promise.all([
    import("@modelcontextprotocol/sdk/server/index.js"),
    import("@modelcontextprotocol/sdk/server/stdio.js"),
    import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]);
  return {
    Server: server.Server,
    StdioServerTransport: stdio.StdioServerTransport,
    HttpServerTransport: http.StreamableHTTPServerTransport,
    types,
  };
}

/**
 * The SDK's client builds an ajv instance when it is constructed (a few ms
 * of a start), though only tools that declare an output schema need one.
 */
function lazyValidator(ajv: typeof AjvValidatorModule): jsonSchemaValidator {
  let inner: jsonSchemaValidator | undefined;
  return { getValidator: (schema) => (inner ??= new ajv.AjvJsonSchemaValidator()).getValidator(schema) };
}
