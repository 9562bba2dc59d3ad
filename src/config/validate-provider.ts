/** Validation of one `providers.<name>` entry; its `models:` are validate-models.ts's. */
import { isAbsolute, join, resolve } from "node:path";
import { didYouMean } from "../values.ts";
import type { ConfigReader } from "./config-reader.ts";
import { findPreset, isProtocolName, PRESETS, PROTOCOLS } from "./presets.ts";
import { readApiKeySource } from "./read-api-key-source.ts";
import { readRequestTiming, REQUEST_TIMING_KEYS } from "./read-request-timing.ts";
import type { ProviderSettings } from "./types.ts";
import { unsetWhenEmpty } from "./unset-when.ts";
import { readModels } from "./validate-models.ts";

const PROVIDER_KEYS = [
  "protocol",
  "preset",
  "base_url",
  "api_key",
  "headers",
  "session_header",
  "models",
  "script",
  ...REQUEST_TIMING_KEYS,
] as const;
// RFC 9110 token: what an HTTP header name may contain.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Where relative and `~` paths of the file resolve. */
export interface PathBase {
  /** Directory of the configuration file. */
  configDir: string;
  home: string;
}

/** Validates `providers.<name>`; problems go to `reader`, `undefined` when unusable. */
export function validateProvider(
  reader: ConfigReader,
  name: string,
  value: unknown,
  base: PathBase,
): ProviderSettings | undefined {
  const path = ["providers", name];
  const problemsBefore = reader.problems.length;
  if (name === "") reader.problem(path, "a provider name must not be empty");
  if (name.includes("/"))
    reader.problem(
      path,
      `provider name must not contain "/" (a model reference "provider/alias" splits on the first "/")`,
    );
  const map = reader.mapping(value, path);
  if (!map) return undefined;
  reader.knownKeys(map, PROVIDER_KEYS, path);

  const protocolText = unsetWhenEmpty(reader.string(map, "protocol", path));
  const presetText = unsetWhenEmpty(reader.string(map, "preset", path));
  let protocol = undefined as ProviderSettings["protocol"] | undefined;
  let presetUrl = "";
  if (protocolText !== undefined && presetText !== undefined) {
    reader.problem(path, "set either protocol or preset, not both");
  } else if (presetText !== undefined) {
    const preset = findPreset(presetText);
    if (preset) {
      protocol = preset.protocol;
      presetUrl = preset.baseUrl;
    } else {
      reader.problem(
        [...path, "preset"],
        `unknown preset "${presetText}" (${didYouMean(presetText, Object.keys(PRESETS))}known presets: ${Object.keys(PRESETS).join(", ")})`,
      );
    }
  } else if (protocolText !== undefined) {
    if (isProtocolName(protocolText)) protocol = protocolText;
    else
      reader.problem(
        [...path, "protocol"],
        `unknown protocol "${protocolText}" (${didYouMean(protocolText, PROTOCOLS)}known protocols: ${PROTOCOLS.join(", ")})`,
      );
  } else {
    reader.problem(
      path,
      `needs either "protocol" (with "base_url") or "preset" (one of: ${Object.keys(PRESETS).join(", ")})`,
    );
  }

  const baseUrl = readBaseUrl(reader, map, path, protocol, presetText !== undefined, presetUrl);
  const script = readScript(reader, map, path, protocol, base);
  const headers = readHeaders(reader, map, path);
  const sessionHeader = reader.string(map, "session_header", path)?.trim();
  if (sessionHeader && !HEADER_NAME.test(sessionHeader)) {
    reader.problem([...path, "session_header"], `"${sessionHeader}" is not a valid HTTP header name`);
  }
  const models = readModels(reader, map, path, protocol);
  const timing = readRequestTiming(reader, map, path);
  const apiKey = reader.string(map, "api_key", path) ?? "";
  // A key pasted with its line ending (a file saved on Windows keeps "\r" through $(cat ...)) would make every request fail as unreachable.
  if (/[\r\n\0]/.test(apiKey))
    reader.problem([...path, "api_key"], "must not contain line breaks (was the key copied with its line ending?)");

  if (reader.problems.length > problemsBefore || protocol === undefined) return undefined;
  const settings: ProviderSettings = {
    name,
    protocol,
    baseUrl,
    apiKey,
    headers,
    models,
    unset: reader.unsetUnder(path),
    timing,
    apiKeySource: readApiKeySource(reader, map, path),
  };
  if (presetText !== undefined) settings.preset = presetText;
  if (sessionHeader) settings.sessionHeader = sessionHeader;
  if (script !== undefined) settings.script = script;
  return settings;
}

function readBaseUrl(
  reader: ConfigReader,
  map: Record<string, unknown>,
  path: string[],
  protocol: string | undefined,
  fromPreset: boolean,
  presetUrl: string,
): string {
  const written = reader.string(map, "base_url", path)?.trim();
  const at = [...path, "base_url"];
  if (protocol === "replay") {
    if (written) reader.problem(at, "is not used by the replay protocol (remove it)");
    return "";
  }
  // A URL built from an unset variable is reported when the provider is used, not here.
  if (reader.unsetUnder(at).length > 0) return (written ?? "").replace(/\/+$/, "");
  if (!written) {
    if (protocol !== undefined && !fromPreset) reader.problem(at, `is required with protocol "${protocol}"`);
    return presetUrl;
  }
  if (!isHttpUrl(written)) {
    reader.problem(at, `must be an http:// or https:// URL (got "${written}")`);
    return "";
  }
  return written.replace(/\/+$/, "");
}

function readScript(
  reader: ConfigReader,
  map: Record<string, unknown>,
  path: string[],
  protocol: string | undefined,
  base: PathBase,
): string | undefined {
  const written = reader.string(map, "script", path)?.trim();
  const at = [...path, "script"];
  if (protocol !== undefined && protocol !== "replay") {
    if (written !== undefined) reader.problem(at, `is only used by protocol "replay"`);
    return undefined;
  }
  if (protocol === undefined) return undefined;
  if (!written) {
    reader.problem(at, `is required with protocol "replay" (the path of a replay script)`);
    return undefined;
  }
  return resolveUserPath(written, base);
}

/** Whether `text` is an http:// or https:// URL (a provider's base_url, an MCP server's url). */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** `~` and `~/x` from home; relative paths from the configuration file's directory. */
export function resolveUserPath(written: string, base: PathBase): string {
  if (written === "~") return base.home;
  if (written.startsWith("~/")) return join(base.home, written.slice(2));
  return isAbsolute(written) ? resolve(written) : resolve(base.configDir, written);
}

/** `headers:` of a provider or an MCP server: names are HTTP tokens, values one line. */
export function readHeaders(
  reader: ConfigReader,
  map: Record<string, unknown>,
  path: readonly string[],
): Record<string, string> {
  const at = [...path, "headers"];
  const headers: Record<string, string> = {};
  const written = reader.mapping(map.headers, at);
  if (!written) return headers;
  for (const name of Object.keys(written)) {
    const value = reader.string(written, name, at) ?? "";
    if (!HEADER_NAME.test(name)) {
      reader.problem([...at, name], `"${name}" is not a valid HTTP header name`);
    } else if (/[\r\n\0]/.test(value)) {
      reader.problem([...at, name], "a header value must not contain line breaks");
    } else {
      headers[name] = value;
    }
  }
  return headers;
}
