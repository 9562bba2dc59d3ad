/**
 * A provider module's returned value read into the ProviderSettings every
 * provider has (go-current.md §3): the first rule it breaks refuses it
 * whole, with the Go program's reason. Unknown fields are ignored.
 */
import type { ProviderOrigin, ProviderSettings } from "../config/types.ts";
import { isPlainObject } from "../values.ts";
import {
  DeclarationRefused,
  isUnset,
  MODULE_PROTOCOLS,
  readBaseUrl,
  readHeaders,
  readProtocol,
  readSessionHeader,
  shown,
} from "./declaration-fields.ts";
import { readModels } from "./read-models.ts";

/** What `auth` accepts: a key from credentials.json, or none. */
const AUTHS = ["api_key", "none"] as const;

/**
 * The declaration `value` of provider `name` (an object: the caller has
 * refused anything else); throws DeclarationRefused. The key is left empty
 * and its source "absent": the caller puts the key from credentials.json in.
 */
export function readDeclaration(
  name: string,
  origin: Exclude<ProviderOrigin, "config">,
  value: Record<string, unknown>,
): ProviderSettings {
  if (isEmptyDeclaration(value)) throw new DeclarationRefused("module returned an empty declaration");
  // The Go program's order: protocol, base_url, auth, then the models one by one.
  if (isUnset(value.protocol))
    throw new DeclarationRefused(`protocol is required (accepted: ${MODULE_PROTOCOLS.join(", ")})`);
  const protocol = readProtocol(value.protocol);
  if (isUnset(value.base_url)) throw new DeclarationRefused("base_url is required");
  const baseUrl = readBaseUrl(value.base_url);
  const auth = readAuth(value.auth);
  const sessionHeader = readSessionHeader(value.session_header);
  const headers = readHeaders(value.headers);
  const settings: ProviderSettings = {
    name,
    protocol,
    baseUrl,
    apiKey: "",
    headers,
    models: readModels(value.models, headers),
    unset: [],
    timing: {},
    apiKeySource: { kind: "absent", path: "credentials.json" },
    origin,
    auth,
  };
  if (sessionHeader !== undefined) settings.sessionHeader = sessionHeader;
  return settings;
}

/**
 * Not written (or ""): `api_key`, the safe reading (a run asks for a key
 * rather than sending none). The Go program refuses a module without it
 * (`unknown auth ""`); ours accepts and documents.
 */
function readAuth(value: unknown): (typeof AUTHS)[number] {
  if (isUnset(value)) return "api_key";
  if (typeof value === "string" && (AUTHS as readonly string[]).includes(value)) return value as (typeof AUTHS)[number];
  throw new DeclarationRefused(`unknown auth ${shown(value)} (accepted: ${AUTHS.join(", ")})`);
}

/** As the Go program tells it: none of protocol, base_url, auth and models says anything. */
function isEmptyDeclaration(value: Record<string, unknown>): boolean {
  const models = value.models;
  const noModels = models === undefined || models === null || (Array.isArray(models) && models.length === 0);
  return isUnset(value.protocol) && isUnset(value.base_url) && isUnset(value.auth) && noModels;
}

/** Whether `value` can be read as a declaration at all (an object, not an array). */
export function isDeclarationObject(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value);
}
