/**
 * The script forms of `rienda auth` (docs/cli.md "rienda auth"): `set NAME`
 * stores the key read from stdin, `list` shows every provider and where its
 * key comes from, `rm NAME` removes a stored key. Messages go to stderr
 * (stdout carries only `list`'s table or JSON); no message ever holds a key.
 */
import { readCredentials, removeCredential, setCredential } from "../../credentials/index.ts";
import { RiendaError } from "../../errors.ts";
import { jsonWithControlsEscaped } from "../../ui/index.ts";
import { stdoutForPeople } from "../shared/for-people.ts";
import { authJson, formatAuthTable } from "./format-list.ts";
import type { KeyCommandContext } from "./key-context.ts";
import { knownProvider } from "./key-context.ts";
import { providerRow } from "../shared/provider-rows.ts";
import { readKey, type KeyInput } from "./read-key.ts";

/** Where a command reads the key and writes its lines. */
export interface KeyStreams {
  stdin: KeyInput;
  stderr: { write(text: string): unknown };
}

/**
 * `auth set NAME`: a known provider (its module evaluated first: one that
 * declares `auth: none` is refused, no key would ever be sent), the key
 * from stdin, stored. A config.yaml provider that writes `api_key` keeps
 * using that one: the key is stored anyway (a first step of moving it out
 * of config.yaml) and a note says so.
 */
export async function setKey(context: KeyCommandContext, name: string, streams: KeyStreams): Promise<void> {
  knownProvider(context, name, "auth set");
  const state = await context.roster.provider(name);
  if (state?.kind === "ready" && state.settings.auth === "none") {
    throw new RiendaError(
      "usage",
      `auth set: provider ${name} needs no key (its module ${state.listing.source} declares auth: none); nothing was stored`,
    );
  }
  const key = await readKey(name, streams.stdin, streams.stderr);
  setCredential(context.credentialsPath, name, key);
  streams.stderr.write(`stored the key of ${name} in ${context.credentialsPath}\n`);
  const written = context.configKey(name);
  if (written !== undefined) {
    streams.stderr.write(
      `note: ${context.config.path} writes ${written}, which is used before the stored key; remove it from config.yaml for this one to be used\n`,
    );
  }
}

/** `auth rm NAME`: removes the stored key; none stored is said, not an error (exit 0). A name no provider has may still be removed when a key of it is stored. */
export function removeKey(context: KeyCommandContext, name: string, streams: Pick<KeyStreams, "stderr">): void {
  const storedEntry = readCredentials(context.credentialsPath).keyOf(name) !== undefined;
  if (!storedEntry) knownProvider(context, name, "auth rm");
  const removed = removeCredential(context.credentialsPath, name);
  const written = context.configKey(name);
  const stays = written !== undefined ? ` (its key in ${context.config.path}, ${written}, stays)` : "";
  streams.stderr.write(
    removed
      ? `removed the key of ${name} from ${context.credentialsPath}${stays}\n`
      : `no key of ${name} is stored in ${context.credentialsPath}: nothing to remove${stays}\n`,
  );
}

/**
 * `auth list [--json]`: every provider (each module evaluated), then, on
 * stderr, each module that fails (its `provider "<name>": <reason>` line,
 * as a run prints it) and keys stored for names no provider has. Returns
 * whether every module worked: a script notices one that fails by the
 * exit status, as with `rienda models`.
 */
export async function listKeys(
  context: KeyCommandContext,
  json: boolean,
  streams: Pick<KeyStreams, "stderr">,
): Promise<boolean> {
  const credentials = readCredentials(context.credentialsPath);
  const stored = (provider: string) => credentials.keyOf(provider) !== undefined;
  const rows = (await context.roster.all()).map((state) => providerRow(state, stored));
  const known = new Set(rows.map((row) => row.name));
  const unused = credentials.providers().filter((name) => !known.has(name));
  // A module's problem quotes what it threw.
  if (json) process.stdout.write(`${jsonWithControlsEscaped(authJson(rows, context.credentialsPath, unused))}\n`);
  else stdoutForPeople().write(formatAuthTable(rows));
  const failed = rows.filter((row) => row.key === undefined && row.problem !== undefined);
  for (const row of failed) streams.stderr.write(`rienda: ${row.problem}\n`);
  // JSON carries the rest (`unused_keys`, an empty `providers`).
  if (json) return failed.length === 0;
  if (rows.length === 0)
    streams.stderr.write(
      `no provider is declared: add one to ${context.config.path} or a provider module to ~/.rienda/providers (docs/providers.md)\n`,
    );
  if (unused.length > 0) {
    streams.stderr.write(
      `${context.credentialsPath} also holds keys of providers that do not exist: ${unused.join(", ")} (rienda auth rm NAME removes one)\n`,
    );
  }
  return failed.length === 0;
}
