/**
 * The roster of one process: config.yaml's providers as they are, provider
 * modules evaluated on first use (each once), keys from credentials.json.
 * A run on a config.yaml model evaluates no module; a run on `acme/...`
 * evaluates `acme` only.
 */
import type { LoadedConfig, ProviderSettings } from "../config/index.ts";
import { resolveProviderModel, splitModelRef } from "../config/index.ts";
import { readCredentials, type Credentials } from "../credentials/index.ts";
import { RiendaError } from "../errors.ts";
import type { ResolvedModel } from "../providers/index.ts";
import { didYouMean } from "../values.ts";
import type { KeyState, ModuleSource, ProviderListing, ProviderModuleEntry, ProviderState, Roster } from "./types.ts";

export interface RosterOptions<Entry extends ProviderModuleEntry> {
  config: LoadedConfig;
  modules: ModuleSource<Entry>;
  /** Path of credentials.json (read once, on first need). */
  credentialsPath: string;
  /** Ends what evaluating modules started (their runtime). */
  close?: () => Promise<void>;
}

export function createRoster<Entry extends ProviderModuleEntry>(options: RosterOptions<Entry>): Roster {
  const { config } = options;
  const modules = options.modules.list();
  const listed = listProviders(config, modules);
  // After the source's merge a name has one module (a user one replacing the built-in).
  const moduleNamed = new Map(modules.map((m) => [m.name, m]));
  const states = new Map<string, Promise<ProviderState>>();
  let credentials: Credentials | undefined;
  const keys = (): Credentials => (credentials ??= readCredentials(options.credentialsPath));

  const provider = (name: string): Promise<ProviderState> | undefined => {
    const listing = listed.find((l) => l.name === name);
    if (!listing) return undefined;
    let state = states.get(name);
    if (!state) {
      state = settle(
        listing,
        config,
        listing.origin === "config" ? undefined : moduleNamed.get(name),
        options.modules,
        keys,
      );
      states.set(name, state);
    }
    return state;
  };

  const resolve = async (ref: string): Promise<ResolvedModel> => {
    const parts = splitModelRef(ref);
    if (!parts) throw new RiendaError("config", `model reference "${ref}" must have the form provider/model`);
    const state = await provider(parts.provider);
    if (!state) throw unknownProvider(parts.provider, listed, config);
    if (state.kind === "failed") throw new RiendaError("config", state.problem);
    if (state.key === "missing")
      throw new RiendaError("config", `provider ${state.listing.name} is not authenticated; run rienda auth`);
    const model = resolveProviderModel(state.settings, state.listing.source, ref);
    if (state.listing.origin === "module") model.declaredIn = state.listing.source;
    if (state.listing.origin === "built-in") model.declaredIn = `the built-in module ${state.listing.name}`;
    return model;
  };

  const all = () => Promise.all(listed.map((l) => provider(l.name)!));
  return {
    config,
    listings: () => listed.map((l) => ({ ...l, hides: [...l.hides] })),
    provider: async (name) => provider(name),
    all,
    resolve,
    offers: async (ref) => {
      try {
        await resolve(ref);
        return true;
      } catch (error) {
        if (error instanceof RiendaError) return false;
        throw error;
      }
    },
    models: async () => (await all()).flatMap(usableRefs).sort(),
    problems: async () =>
      (await Promise.allSettled(states.values())).flatMap((settled) =>
        settled.status === "fulfilled" && settled.value.kind === "failed" ? [settled.value.problem] : [],
      ),
    close: async () => {
      await Promise.allSettled([...states.values()]);
      await options.close?.();
    },
  };
}

/** config.yaml's providers first, then modules; config.yaml hides a module of its name, a user module a built-in (already merged by the source). */
function listProviders(config: LoadedConfig, modules: readonly ProviderModuleEntry[]): ProviderListing[] {
  const listings: ProviderListing[] = [...config.providers.keys()].map((name) => ({
    name,
    origin: "config",
    source: config.path,
    hides: modules.filter((m) => m.name === name),
  }));
  const moduleListings: ProviderListing[] = modules
    .filter((m) => !config.providers.has(m.name))
    .map((m) => ({ name: m.name, origin: m.origin, source: m.path, hides: [] }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return [...listings, ...moduleListings];
}

/** A config.yaml provider (no module entry) as it is; a module's after its one evaluation; either with its key. */
async function settle<Entry extends ProviderModuleEntry>(
  listing: ProviderListing,
  config: LoadedConfig,
  entry: Entry | undefined,
  modules: ModuleSource<Entry>,
  keys: () => Credentials,
): Promise<ProviderState> {
  if (entry === undefined) return withKey(listing, config.providers.get(listing.name)!, keys);
  const evaluated = await modules.evaluate(entry);
  if ("problem" in evaluated) return { kind: "failed", listing, problem: evaluated.problem };
  return withKey(listing, { ...evaluated.provider, origin: entry.origin }, keys);
}

/**
 * The provider's key: config.yaml's `api_key` when written; else
 * credentials.json's by provider name (`rienda auth`); a module with
 * `auth: api_key` and neither is not authenticated.
 */
function withKey(listing: ProviderListing, settings: ProviderSettings, keys: () => Credentials): ProviderState {
  if (settings.apiKeySource.kind !== "absent") return { kind: "ready", listing, settings, key: "config" };
  // `auth: none` sends no key, even one stored under its name (go-current.md §3).
  if (settings.auth === "none") return { kind: "ready", listing, settings, key: "not needed" };
  const stored = keys();
  const key = stored.keyOf(listing.name);
  if (key !== undefined) {
    return {
      kind: "ready",
      listing,
      settings: {
        ...settings,
        apiKey: key,
        apiKeySource: { kind: "credentials", path: stored.path, provider: listing.name },
      },
      key: "credentials",
    };
  }
  const state: KeyState = settings.auth === "api_key" ? "missing" : listing.origin === "config" ? "none" : "not needed";
  return { kind: "ready", listing, settings, key: state };
}

function usableRefs(state: ProviderState): string[] {
  if (state.kind !== "ready" || state.key === "missing") return [];
  return [...state.settings.models.keys()].map((alias) => `${state.listing.name}/${alias}`);
}

/** `unknown provider "x" (did you mean ...? providers in <config.yaml>: a, b; provider modules: c)`, saying so when config.yaml does not exist. */
export function unknownProvider(
  name: string,
  listed: readonly ProviderListing[],
  config: Pick<LoadedConfig, "path" | "present">,
): RiendaError {
  const inConfig = listed.filter((l) => l.origin === "config").map((l) => l.name);
  const modules = listed.filter((l) => l.origin !== "config").map((l) => l.name);
  const places = [
    ...(inConfig.length > 0 ? [`providers in ${config.path}: ${inConfig.join(", ")}`] : []),
    ...(modules.length > 0 ? [`provider modules: ${modules.join(", ")}`] : []),
    ...(config.present ? [] : [`there is no ${config.path}: "rienda init" writes a starter one`]),
  ];
  const hint = didYouMean(
    name,
    listed.map((l) => l.name),
  );
  return new RiendaError("config", `unknown provider "${name}" (${hint}${places.join("; ")})`);
}
