/** Parses the JSON of one SSE `data:` field into a value or a failure. */
import { providerFailure } from "./provider-failure.ts";
import type { ProviderFailure } from "./types.ts";
import { parseJsonWithin } from "../values.ts";

/** Parses the JSON of one SSE `data:` field; a malformed event is a failure value naming what arrived. */
export function parseEventData<T>(data: string): { ok: true; value: T } | { ok: false; failure: ProviderFailure } {
  try {
    const value = parseJsonWithin(data);
    if (typeof value === "object" && value !== null) return { ok: true, value: value as T };
  } catch {
    // fall through to the failure below
  }
  const shown = data.length > 200 ? `${data.slice(0, 200)}…` : data;
  return {
    ok: false,
    failure: providerFailure("other", `the provider sent a malformed stream event: ${shown}`, { retryable: false }),
  };
}
