/**
 * Reading the shipped snapshot: models-dev-snapshot.bin holds every
 * provider's entry (JSON, brotli-compressed), snapshot.generated.ts where
 * each one is. The file is read when a provider is first asked for (the
 * compiled binary embeds it as a file, scripts/release/compile.ts; from
 * source it is the file beside this one), an entry is decompressed when
 * first asked for and kept as JSON text, and every answer is parsed anew
 * from it, so callers get a copy of their own.
 */
import { readFileSync } from "node:fs";
import { RiendaError } from "../errors.ts";
import { providerSlices } from "./snapshot.generated.ts";

/** The data file's name: unique, because the binary embeds it at the root of its files, beside every chunk. */
const DATA_FILE = "./models-dev-snapshot.bin";

/** Provider id -> its entry as JSON text, filled as providers are asked for. */
const decoded = new Map<string, string>();
let slices: Record<string, [offset: number, length: number]> | undefined;
let data: Buffer | undefined;

function sliceTable(): Record<string, [offset: number, length: number]> {
  slices ??= providerSlices();
  return slices;
}

/** The ids of every provider in the snapshot, sorted. */
export function providerIds(): string[] {
  return Object.keys(sliceTable());
}

/** The provider's entry as JSON text, or undefined when the snapshot has no such provider. */
export function providerJson(id: string): string | undefined {
  const known = decoded.get(id);
  if (known !== undefined) return known;
  const table = sliceTable();
  if (!Object.hasOwn(table, id)) return undefined;
  const [offset, length] = table[id]!;
  data ??= readData();
  // node:zlib is loaded here, not imported: a start that needs no entry must not pay for loading it (about 15 ms of CPU where nothing else of node's is loaded).
  const zlib = process.getBuiltinModule("node:zlib");
  const json = zlib.brotliDecompressSync(data.subarray(offset, offset + length)).toString("utf8");
  decoded.set(id, json);
  return json;
}

/** The data file; a build that left it out is an internal error naming it, not a crash. */
function readData(): Buffer {
  const url = new URL(DATA_FILE, import.meta.url);
  try {
    return readFileSync(url);
  } catch (error) {
    throw new RiendaError(
      "internal",
      `the models.dev snapshot ${url.pathname} cannot be read (${(error as Error).message}): this build of rienda is incomplete (docs/development.md, "The models.dev snapshot")`,
      { cause: error },
    );
  }
}

/** A fresh copy of the provider's entry, or undefined. */
export function providerEntry(id: string): Record<string, unknown> | undefined {
  const json = providerJson(id);
  return json === undefined ? undefined : (JSON.parse(json) as Record<string, unknown>);
}
