/**
 * The ACP v1 schema the SDK ships (`@agentclientprotocol/sdk/schema/v1/schema.json`)
 * compiled with ajv, to check every message `rienda acp` and its client
 * exchange: the whole message against the schema's side (`Agent` for what
 * the agent writes, `Client` for what it reads), and its params or result
 * against the definition of its method (`x-method`), found for a response
 * by the request it answers. Never imports src/.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import Ajv2020 from "ajv/dist/2020.js";

const require = createRequire(import.meta.url);
const SCHEMA = JSON.parse(readFileSync(require.resolve("@agentclientprotocol/sdk/schema/v1/schema.json"), "utf8")) as {
  anyOf: Array<{ title: string }>;
  $defs: Record<string, { "x-method"?: string }>;
};

// strict: false lets the schema's own keywords (x-side, discriminator, the uint formats) pass as annotations.
const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
ajv.addSchema(SCHEMA, "acp");

const side = (title: string) => {
  const index = SCHEMA.anyOf.findIndex((branch) => branch.title === title);
  if (index < 0) throw new Error(`the ACP schema has no "${title}" message`);
  return ajv.compile({ $ref: `acp#/anyOf/${index}` });
};
const agentMessage = side("Agent");
const clientMessage = side("Client");

/** The definition of each method's params and result, by method and suffix (Request, Response, Notification). */
const byMethod = new Map<string, string>();
for (const [name, def] of Object.entries(SCHEMA.$defs)) {
  const method = def["x-method"];
  const kind = /(Request|Response|Notification)$/.exec(name)?.[1];
  if (method && kind) byMethod.set(`${method} ${kind}`, name);
}
const checks = new Map<string, ReturnType<typeof ajv.compile>>();
function check(defName: string) {
  let compiled = checks.get(defName);
  if (!compiled) checks.set(defName, (compiled = ajv.compile({ $ref: `acp#/$defs/${defName}` })));
  return compiled;
}

type Message = { id?: string | number | null; method?: string; params?: unknown; result?: unknown; error?: unknown };

/** Checks messages in the order they were seen; requests are remembered so that their responses are checked against their method. */
export class AcpSchemaCheck {
  readonly problems: string[] = [];
  readonly #pending = new Map<string, string>();
  count = 0;

  /** One message; `from` says who wrote it. */
  see(from: "agent" | "client", message: Message): void {
    this.count++;
    const whole = from === "agent" ? agentMessage : clientMessage;
    if (!whole(message)) this.#fail(message, ajv.errorsText(whole.errors));
    if (message.method !== undefined) {
      const kind = message.id !== undefined ? "Request" : "Notification";
      if (message.id !== undefined) this.#pending.set(`${from} ${String(message.id)}`, message.method);
      this.#part(message, `${message.method} ${kind}`, message.params);
      return;
    }
    const requester = from === "agent" ? "client" : "agent";
    const method = this.#pending.get(`${requester} ${String(message.id)}`);
    this.#pending.delete(`${requester} ${String(message.id)}`);
    if (method === undefined) this.#fail(message, "answers no request seen");
    else if ("result" in message) this.#part(message, `${method} Response`, message.result);
  }

  #part(message: Message, key: string, value: unknown): void {
    const defName = byMethod.get(key);
    if (defName === undefined) {
      // $/cancel_request is the protocol's own notification; anything else must be a method of the schema.
      if (key !== "$/cancel_request Notification") this.#fail(message, `no schema definition for ${key}`);
      return;
    }
    const compiled = check(defName);
    if (!compiled(value)) this.#fail(message, `${defName}: ${ajv.errorsText(compiled.errors)}`);
  }

  #fail(message: Message, why: string): void {
    this.problems.push(`${why}\n  ${JSON.stringify(message).slice(0, 2000)}`);
  }
}
