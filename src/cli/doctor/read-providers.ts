/**
 * What doctor knows of each provider: config.yaml's and every provider
 * module's (each evaluated, as a run on it would), whether it has a key,
 * its models, and credentials.json read once. Sends no model request;
 * a module may do what its code does when called (read ctx.cache, fetch
 * its model list), exactly as on the first run that uses it.
 */
import type { LoadedConfig } from "../../config/index.ts";
import { credentialsPath, readCredentials } from "../../credentials/index.ts";
import { messageOf } from "../../errors.ts";
import { listProviderModules } from "../../provider-modules/index.ts";
import type { ProviderModuleEntry, ProviderState } from "../../roster/index.ts";
import { pendingRow, providerRow, type ProviderRow } from "../shared/provider-rows.ts";
import { storedKeys } from "../shared/stored-keys.ts";
import { openRoster } from "../../compose/index.ts";

/** One provider as doctor checks it. */
export interface ProviderFacts {
  row: ProviderRow;
  /** The aliases of its models, when its module (if any) ran. */
  aliases?: readonly string[];
  /** Modules of its name it hides (config.yaml's provider over a module). */
  hides: readonly ProviderModuleEntry[];
  /** Why its state could not be worked out besides its module failing (a damaged credentials.json). */
  unsettled?: string;
}

/** credentials.json: where, and why it cannot be read (without the path), when it cannot. */
export interface CredentialsFacts {
  path: string;
  problem?: string;
}

/** The providers folder (RIENDA_PROVIDERS, else ~/.rienda/providers), and why it cannot be listed, when it cannot. */
export interface ProvidersFolderFacts {
  path: string;
  problems: string[];
}

export interface ProvidersRead {
  providers: ProviderFacts[];
  credentials: CredentialsFacts;
  folder: ProvidersFolderFacts;
}

/** Every provider of the roster, each settled (modules evaluated at once, side by side). */
export async function readProviders(
  config: LoadedConfig,
  request: { home: string; env: Readonly<Record<string, string | undefined>> },
): Promise<ProvidersRead> {
  const path = credentialsPath(request.env, request.home);
  const credentials = readCredentialsFacts(path);
  const stored = storedKeys(path);
  const roster = openRoster(config, request);
  try {
    const listings = roster.listings();
    const settled = await Promise.allSettled(listings.map((listing) => roster.provider(listing.name)));
    const providers = listings.map((listing, index): ProviderFacts => {
      const outcome = settled[index]!;
      if (outcome.status === "rejected" || outcome.value === undefined) {
        const unsettled = outcome.status === "rejected" ? messageOf(outcome.reason) : "not in the roster";
        return { row: pendingRow(listing), hides: listing.hides, unsettled };
      }
      return { row: providerRow(outcome.value, stored), hides: listing.hides, ...aliasesOf(outcome.value) };
    });
    const listing = listProviderModules({ env: request.env, home: request.home });
    const prefix = `providers folder ${listing.folder}: `;
    const folder = {
      path: listing.folder,
      problems: listing.problems.map((p) => (p.startsWith(prefix) ? p.slice(prefix.length) : p)),
    };
    return { providers, credentials, folder };
  } finally {
    await roster.close();
  }
}

function aliasesOf(state: ProviderState): { aliases?: readonly string[] } {
  return state.kind === "ready" ? { aliases: [...state.settings.models.keys()] } : {};
}

function readCredentialsFacts(path: string): CredentialsFacts {
  try {
    readCredentials(path);
    return { path };
  } catch (error) {
    const message = messageOf(error);
    return { path, problem: message.startsWith(`${path}: `) ? message.slice(path.length + 2) : message };
  }
}
