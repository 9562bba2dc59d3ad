/**
 * The roster a command works with: config.yaml as loaded, the provider
 * modules of ~/.rienda/providers (RIENDA_PROVIDERS) and the built-ins,
 * evaluated in a runtime of their own that starts only when a module is
 * evaluated; keys from credentials.json.
 */
import { join } from "node:path";
import type { LoadedConfig } from "../config/index.ts";
import { credentialsPath } from "../credentials/index.ts";
import { evaluateProviderModule, listProviderModules, type ModuleEntry } from "../provider-modules/index.ts";
import { createRoster, type ModuleSource, type Roster } from "../roster/index.ts";
import { createRuntime, type Runtime } from "../runtime/index.ts";

export interface RosterRequest {
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  /** An interrupt ends a module's evaluation. */
  signal?: AbortSignal;
  /** Where modules' own lines go (ctx.log, console.*, the built-ins' notices); default stderr. A full-screen view takes them so that nothing is written over it. */
  log?: (text: string) => void;
}

export function openRoster(config: LoadedConfig, request: RosterRequest): Roster {
  let runtime: Runtime | undefined;
  const modules = moduleSource(config, request, () => (runtime ??= createRuntime()));
  return createRoster({
    config,
    modules,
    credentialsPath: credentialsPath(request.env, request.home),
    close: async () => runtime?.close(),
  });
}

/** The modules (the roster lists them once, when it is made), each evaluated with config.yaml as its `ctx.config` (an empty mapping without the file). */
function moduleSource(config: LoadedConfig, request: RosterRequest, runtime: () => Runtime): ModuleSource<ModuleEntry> {
  return {
    list: () => listProviderModules({ env: request.env, home: request.home }).modules,
    evaluate: (module) =>
      evaluateProviderModule(module, {
        runtime: runtime(),
        configDocument: config.document,
        riendaDir: join(request.home, ".rienda"),
        signal: request.signal ?? new AbortController().signal,
        ...(request.log ? { log: request.log } : {}),
      }),
  };
}
