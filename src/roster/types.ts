/**
 * Shapes of the roster: every provider a run can use, from config.yaml (the
 * older generation) and from provider modules (the current one), with the
 * keys of credentials.json, the models a session may pick and their
 * thinking levels.
 */
import type { LoadedConfig, ProviderOrigin, ProviderSettings } from "../config/index.ts";
import type { ResolvedModel } from "../providers/index.ts";

/** A provider module found on disk or inside the binary, not evaluated yet. */
export interface ProviderModuleEntry {
  name: string;
  origin: "module" | "built-in";
  /** Absolute path of its index.js (a built-in's path inside the binary). */
  path: string;
}

/** Where the roster's provider modules come from and how one is evaluated (provider-modules/, plugged in by compose/); `evaluate` gets an entry `list` gave. */
export interface ModuleSource<Entry extends ProviderModuleEntry = ProviderModuleEntry> {
  list(): Entry[];
  /** Calls the module once; `problem` is the whole `provider "<name>": <reason>` line. */
  evaluate(entry: Entry): Promise<{ provider: ProviderSettings } | { problem: string }>;
}

/** A provider as the roster knows it before anything is evaluated. */
export interface ProviderListing {
  name: string;
  origin: ProviderOrigin;
  /** config.yaml's path, or the module's index.js. */
  source: string;
  /** Modules of the same name that this one hides (config.yaml over a module, a user module over a built-in). */
  hides: ProviderModuleEntry[];
}

/**
 * Where a provider's key comes from: config.yaml's `api_key`, credentials.json;
 * `not needed` for a module with `auth: none`; `none` for a config.yaml
 * provider with neither (a key is optional there); `missing` for a module with
 * `auth: api_key` and no key (a run on it is refused).
 */
export type KeyState = "config" | "credentials" | "not needed" | "none" | "missing";

/** A provider after its module (if any) ran. */
export type ProviderState =
  | { kind: "ready"; listing: ProviderListing; settings: ProviderSettings; key: KeyState }
  | { kind: "failed"; listing: ProviderListing; problem: string };

/** The providers and models a run can use. Modules are evaluated only when asked for, each once. */
export interface Roster {
  readonly config: LoadedConfig;
  /** Every provider, config.yaml's first (file order), then modules by name; nothing evaluated. */
  listings(): ProviderListing[];
  /** The provider named `name` (its module evaluated once); undefined when no provider has that name. */
  provider(name: string): Promise<ProviderState | undefined>;
  /** Every provider, each module evaluated. */
  all(): Promise<ProviderState[]>;
  /** Settles `provider/model` with its key; throws RiendaError (unknown, failed module, not authenticated). */
  resolve(ref: string): Promise<ResolvedModel>;
  /** Whether `ref` names a model a run can use now (its provider ready, and keyed when it needs a key). */
  offers(ref: string): Promise<boolean>;
  /** Every model of every usable provider as `provider/model`, sorted. */
  models(): Promise<string[]>;
  /** The `provider "<name>": <reason>` line of each module evaluated so far that failed, in evaluation order. */
  problems(): Promise<string[]>;
  /** Ends the runtime modules ran in. */
  close(): Promise<void>;
}
