/**
 * Which models.dev providers a config.yaml provider is: the ones whose API
 * URL is its `base_url`, else the one its vendor preset names. Nothing else
 * is matched (no guessing by model id across providers): the same model id
 * costs differently at each reseller, and a server of one's own (Ollama,
 * LM Studio, anything on this machine or a private network) has no
 * catalogue price at all.
 */
import { providerEndpoints } from "./snapshot.generated.ts";

/**
 * The presets that name a vendor, and its models.dev provider. A preset
 * says whose models these are even when `base_url` points elsewhere (a
 * proxy on this machine in front of the vendor still bills the vendor's
 * prices); `ollama` and `lmstudio` name no vendor.
 */
const VENDOR_PRESETS: Readonly<Record<string, string>> = {
  openai: "openai",
  anthropic: "anthropic",
  openrouter: "openrouter",
  deepseek: "deepseek",
};

/** The endpoints of catalogue providers that have no `api` (their SDK's default). */
const DEFAULT_ENDPOINTS: Readonly<Record<string, readonly string[]>> = {
  openai: ["https://api.openai.com/v1"],
  anthropic: ["https://api.anthropic.com/v1"],
};

let index: Map<string, string[]> | undefined;

/** The models.dev providers that `base_url` (and, failing that, `preset`) designate; empty when none. */
export function catalogueProvidersFor(preset: string | undefined, baseUrl: string): string[] {
  const key = endpointKey(baseUrl);
  const byUrl = key === undefined ? undefined : endpointIndex().get(key);
  if (byUrl !== undefined) return [...byUrl];
  const vendor = preset !== undefined && Object.hasOwn(VENDOR_PRESETS, preset) ? VENDOR_PRESETS[preset] : undefined;
  return vendor !== undefined ? [vendor] : [];
}

/**
 * What identifies an endpoint: host and path of an https URL, without a
 * trailing slash or a final `/v1` (DeepSeek answers with and without it).
 * Undefined for anything else: plain http is a server of one's own, and a
 * catalogue URL with a `${VARIABLE}` in it names no one endpoint.
 */
export function endpointKey(url: string): string | undefined {
  if (url.includes("${")) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== "https:") return undefined;
  const path = parsed.pathname.replace(/\/+$/, "").replace(/\/v1$/, "");
  return `${parsed.host}${path}`;
}

/** Endpoint key -> the providers serving there, built once from the snapshot's endpoint list. */
function endpointIndex(): Map<string, string[]> {
  if (index) return index;
  index = new Map();
  const lists: Record<string, readonly string[]> = { ...providerEndpoints(), ...DEFAULT_ENDPOINTS };
  for (const [id, urls] of Object.entries(lists)) {
    for (const url of urls) {
      const key = endpointKey(url);
      if (key === undefined) continue;
      const ids = index.get(key) ?? [];
      if (!ids.includes(id)) ids.push(id);
      index.set(key, ids);
    }
  }
  return index;
}
