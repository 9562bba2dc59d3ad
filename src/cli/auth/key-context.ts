/**
 * What every form of `rienda auth` works on: config.yaml (as `--config`,
 * RIENDA_CONFIG or ~/.rienda locate it), the roster of providers, and where
 * credentials.json is (RIENDA_CREDENTIALS, else ~/.rienda/credentials.json).
 */
import { loadConfig, type LoadedConfig } from "../../config/index.ts";
import { credentialsPath } from "../../credentials/index.ts";
import { RiendaError } from "../../errors.ts";
import { unknownProvider, type ProviderListing, type Roster } from "../../roster/index.ts";
import { openRoster } from "../../compose/index.ts";

export interface KeyCommandContext {
  config: LoadedConfig;
  roster: Roster;
  /** Absolute path of credentials.json (it may not exist yet). */
  credentialsPath: string;
  /** The key path of config.yaml's `api_key` (`providers.x.api_key`) when the provider writes one: that key is used before a stored one. */
  configKey(provider: string): string | undefined;
}

/** Where the commands read from, and where modules' own lines go (default stderr; the screen shows them itself). */
export interface KeyContextRequest {
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  configFlag?: string;
  log?: (text: string) => void;
}

/** Opens what the commands work on; nothing is evaluated yet. Throws the config's own RiendaError when config.yaml does not load. */
export function openKeyContext(request: KeyContextRequest): KeyCommandContext {
  const config = loadConfig({
    env: request.env,
    home: request.home,
    ...(request.configFlag !== undefined ? { flag: request.configFlag } : {}),
  });
  return {
    config,
    roster: openRoster(config, { home: request.home, env: request.env, ...(request.log ? { log: request.log } : {}) }),
    credentialsPath: credentialsPath(request.env, request.home),
    configKey(provider) {
      const source = config.providers.get(provider)?.apiKeySource;
      return source === undefined || source.kind === "absent" ? undefined : source.path;
    },
  };
}

/** The provider named `name`, or a usage error listing the known ones (with the one probably meant). */
export function knownProvider(
  context: Pick<KeyCommandContext, "roster" | "config">,
  name: string,
  command: string,
): ProviderListing {
  const listings = context.roster.listings();
  const listing = listings.find((l) => l.name === name);
  if (listing) return listing;
  throw new RiendaError("usage", `${command}: ${unknownProvider(name, listings, context.config).message}`);
}
