/**
 * Reading the shipped snapshot (snapshot.generated.ts): a provider's entry
 * is decompressed when first asked for and kept as JSON text, and every
 * answer is parsed anew from it, so callers get a copy of their own.
 */
import { brotliDecompressSync } from "node:zlib";
import { packedProviders } from "./snapshot.generated.ts";

/** Provider id -> its entry as JSON text, filled as providers are asked for. */
const decoded = new Map<string, string>();
let packed: Record<string, string> | undefined;

function packedEntries(): Record<string, string> {
  packed ??= packedProviders();
  return packed;
}

/** The ids of every provider in the snapshot, sorted. */
export function providerIds(): string[] {
  return Object.keys(packedEntries());
}

/** The provider's entry as JSON text, or undefined when the snapshot has no such provider. */
export function providerJson(id: string): string | undefined {
  const known = decoded.get(id);
  if (known !== undefined) return known;
  const entries = packedEntries();
  if (!Object.hasOwn(entries, id)) return undefined;
  const json = brotliDecompressSync(Buffer.from(entries[id]!, "base64")).toString("utf8");
  decoded.set(id, json);
  return json;
}

/** A fresh copy of the provider's entry, or undefined. */
export function providerEntry(id: string): Record<string, unknown> | undefined {
  const json = providerJson(id);
  return json === undefined ? undefined : (JSON.parse(json) as Record<string, unknown>);
}
