/**
 * `credentials.json` (go-current.md §4): `{"<provider>": {"api_key": "..."}}`.
 * Read leniently (a provider entry that is not an object, or an `api_key`
 * that is not a string, is no key), written atomically with mode 0600,
 * keys sorted, two-space indent, every field Rienda does not know kept as
 * it was (another version may have written them).
 */
import { readFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { sortedJson, writeFileAtomic } from "../atomic-file.ts";
import { RiendaError } from "../errors.ts";
import { isRecord } from "../values.ts";

/** Where credentials.json is: `RIENDA_CREDENTIALS`, else `~/.rienda/credentials.json`. */
export function credentialsPath(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
  cwd = process.cwd(),
): string {
  const given = env.RIENDA_CREDENTIALS?.trim();
  if (given) return isAbsolute(given) ? given : resolve(cwd, given);
  return join(home, ".rienda", "credentials.json");
}

/** The keys of credentials.json as read once. */
export interface Credentials {
  /** Absolute path of the file (it may not exist). */
  readonly path: string;
  /** The provider's non-empty `api_key`, or undefined. */
  keyOf(provider: string): string | undefined;
  /** Every provider that has a non-empty key, sorted. */
  providers(): string[];
}

/** Reads credentials.json; a missing file has no keys. Throws RiendaError naming the file when it cannot be read or is not a JSON object. */
export function readCredentials(path: string): Credentials {
  const document = readDocument(path);
  const keyOf = (provider: string): string | undefined => {
    const entry = Object.hasOwn(document, provider) ? document[provider] : undefined;
    const key = isRecord(entry) ? entry.api_key : undefined;
    return typeof key === "string" && key !== "" ? key : undefined;
  };
  return {
    path,
    keyOf,
    providers: () =>
      Object.keys(document)
        .filter((name) => keyOf(name) !== undefined)
        .sort(),
  };
}

/** Stores `key` as the provider's `api_key`, keeping every other field and provider. */
export function setCredential(path: string, provider: string, key: string): void {
  const document = readDocument(path);
  const entry =
    Object.hasOwn(document, provider) && isRecord(document[provider])
      ? (document[provider] as Record<string, unknown>)
      : {};
  document[provider] = { ...entry, api_key: key };
  writeDocument(path, document);
}

/**
 * Removes the provider's key; returns whether there was an entry. Fields of
 * the entry other than `api_key` are kept (another version wrote them); an
 * entry left empty goes.
 */
export function removeCredential(path: string, provider: string): boolean {
  const document = readDocument(path);
  if (!Object.hasOwn(document, provider)) return false;
  const entry = document[provider];
  const { api_key: _key, ...rest } = isRecord(entry) ? entry : {};
  if (Object.keys(rest).length > 0) document[provider] = rest;
  else delete document[provider];
  writeDocument(path, document);
  return true;
}

function readDocument(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return {};
    throw new RiendaError(
      "config",
      `${path}: cannot be read: ${code === "EACCES" || code === "EPERM" ? "permission denied" : (cause as Error).message}`,
      { cause },
    );
  }
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new RiendaError(
      "config",
      `${path}: is not valid JSON (${(cause as Error).message}); it holds keys by provider: {"name": {"api_key": "..."}}`,
      { cause },
    );
  }
  if (!isRecord(value))
    throw new RiendaError("config", `${path}: must be a JSON object of providers: {"name": {"api_key": "..."}}`);
  return value as Record<string, unknown>;
}

function writeDocument(path: string, document: Record<string, unknown>): void {
  try {
    writeFileAtomic(path, sortedJson(document), 0o600);
  } catch (cause) {
    throw new RiendaError("config", `${path}: cannot be written: ${(cause as Error).message}`, { cause });
  }
}
