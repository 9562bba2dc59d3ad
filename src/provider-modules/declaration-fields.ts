/**
 * Checks of single fields of a provider module's declaration, shared by the
 * provider and its models. Each throws a DeclarationRefused with the reason
 * a user reads after `provider "<name>": `.
 */
import type { ProtocolName } from "../providers/types.ts";
import { describeValue } from "../values.ts";

/** One rule of go-current.md §3 a declaration breaks; the message is the reason alone. */
export class DeclarationRefused extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "DeclarationRefused";
  }
}

/** The protocols a module may declare, in the order the Go program lists them (replay is config.yaml's only). */
export const MODULE_PROTOCOLS: readonly ProtocolName[] = Object.freeze([
  "openai_responses",
  "openai_chat_completions",
  "anthropic",
]);

// RFC 9110 token: what an HTTP header name may contain.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** A value the Go program read as "not set": absent, null, or "" for a string field. */
export function isUnset(value: unknown): value is undefined | null | "" {
  return value === undefined || value === null || value === "";
}

/** One of MODULE_PROTOCOLS. */
export function readProtocol(value: unknown): ProtocolName {
  if (typeof value !== "string" || !(MODULE_PROTOCOLS as readonly string[]).includes(value)) {
    throw new DeclarationRefused(`unknown protocol ${shown(value)} (accepted: ${MODULE_PROTOCOLS.join(", ")})`);
  }
  return value as ProtocolName;
}

/** An http:// or https:// address, without trailing slashes. */
export function readBaseUrl(value: unknown): string {
  if (typeof value !== "string")
    throw new DeclarationRefused(`base_url must be a string (it is ${describeValue(value)})`);
  const text = value.trim();
  let scheme = "";
  try {
    scheme = new URL(text).protocol;
  } catch {
    // Not a URL at all: refused below.
  }
  if (scheme !== "http:" && scheme !== "https:")
    throw new DeclarationRefused(`base_url must be an http:// or https:// URL (got ${shown(value)})`);
  return text.replace(/\/+$/, "");
}

/** A header name, or undefined when not set. */
export function readSessionHeader(value: unknown): string | undefined {
  if (isUnset(value)) return undefined;
  if (typeof value !== "string")
    throw new DeclarationRefused(`session_header must be a string (it is ${describeValue(value)})`);
  const name = value.trim();
  if (!HEADER_NAME.test(name))
    throw new DeclarationRefused(`session_header ${JSON.stringify(value)} is not a valid HTTP header name`);
  return name;
}

/** `headers`: names are HTTP tokens, values strings of one line. */
export function readHeaders(value: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  if (value === undefined || value === null) return headers;
  if (typeof value !== "object" || Array.isArray(value))
    throw new DeclarationRefused("headers must be an object of header names to strings");
  for (const [name, text] of Object.entries(value as Record<string, unknown>)) {
    if (!HEADER_NAME.test(name))
      throw new DeclarationRefused(`headers: ${JSON.stringify(name)} is not a valid HTTP header name`);
    if (typeof text !== "string")
      throw new DeclarationRefused(`headers: ${JSON.stringify(name)} must be a string (it is ${describeValue(text)})`);
    if (/[\r\n\0]/.test(text))
      throw new DeclarationRefused(`headers: ${JSON.stringify(name)} must not contain line breaks`);
    headers[name] = text;
  }
  return headers;
}

/** A whole number, or undefined when not set; `what` names the field in the message. */
export function readWholeNumber(value: unknown, what: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value))
    throw new DeclarationRefused(`${what} must be a whole number (got ${shown(value)})`);
  return value;
}

/** A number, or undefined when not set. */
export function readNumber(value: unknown, what: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value))
    throw new DeclarationRefused(`${what} must be a number (got ${shown(value)})`);
  return value;
}

/** A string, or undefined when not set. */
export function readText(value: unknown, what: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string")
    throw new DeclarationRefused(`${what} must be a string (it is ${describeValue(value)})`);
  return value;
}

/** A value in a message: a string, number or boolean as written, anything else by its kind ("an object"). */
export function shown(value: unknown): string {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean"
    ? JSON.stringify(value)
    : describeValue(value);
}
