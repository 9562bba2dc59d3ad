/**
 * The roster a command works with: config.yaml as loaded, the provider
 * modules of ~/.rienda/providers and the built-ins (evaluated in a runtime
 * of their own, started only when a module is evaluated), keys from
 * credentials.json.
 */
import type { LoadedConfig } from "../../config/index.ts";
import { credentialsPath } from "../../credentials/index.ts";
import { createRoster, type ModuleSource, type Roster } from "../../roster/index.ts";

export interface RosterRequest {
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
  /** Where modules' own lines go (ctx.log, console.*, the built-ins' notices); default stderr. A full-screen view takes them so that nothing is written over it. */
  log?: (text: string) => void;
}

export function openRoster(config: LoadedConfig, request: RosterRequest): Roster {
  const modules = moduleSource();
  return createRoster({ config, modules, credentialsPath: credentialsPath(request.env, request.home) });
}

/** Provider modules: wired to provider-modules/ when that lands (issue 38). */
function moduleSource(): ModuleSource {
  return { list: () => [], evaluate: async (entry) => ({ problem: `provider "${entry.name}": provider modules are not loaded yet` }) };
}
