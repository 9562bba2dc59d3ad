/** The shapes of provider modules: what discovery lists, what an evaluation takes and gives. */
import type { ProviderSettings } from "../config/index.ts";
import type { FrontEnd, Runtime } from "../runtime/index.ts";

/** A module of the providers folder: `<folder>/<name>/index.js`. */
export interface UserModuleEntry {
  origin: "module";
  /** The folder's name: the provider name, the part before the first "/" of `provider/model`. */
  name: string;
  /** Absolute path of its index.js. */
  path: string;
  /** Its own folder: the module's file root and working directory. */
  folder: string;
}

/** A module inside the binary (opencode-go, zai-coding-plan), used unless a user module has its name. */
export interface BuiltInModuleEntry {
  origin: "built-in";
  name: string;
  /** Not a file: `built-in:<name>` (where its file is depends on how Rienda runs, and is settled when it is evaluated). */
  path: string;
  /** `<providers folder>/<name>`: the module's file root and working directory (not created: the built-ins read no files). */
  folder: string;
}

/** One provider module discovery found; nothing of it has been evaluated. */
export type ModuleEntry = UserModuleEntry | BuiltInModuleEntry;

/** What `listProviderModules` found, sorted by name. */
export interface ModuleListing {
  /** The providers folder that was listed (`RIENDA_PROVIDERS`, else `~/.rienda/providers`). */
  folder: string;
  modules: ModuleEntry[];
  /** Why the folder could not be listed (it is a file, it cannot be read); a missing folder is no problem. */
  problems: string[];
}

/** Where discovery looks: nothing is read from the process. */
export interface ListOptions {
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  /** What a relative `RIENDA_PROVIDERS` resolves against; default: the process's directory. */
  cwd?: string;
}

/** What one evaluation of a module needs. */
export interface EvaluateOptions {
  runtime: Runtime;
  /** config.yaml as data (`ctx.config`); `{}` without a config.yaml. */
  configDocument: Record<string, unknown>;
  /** The `~/.rienda` folder: where `ctx.cache` and `ctx.store` keep their files (whatever RIENDA_PROVIDERS says). */
  riendaDir: string;
  /** Aborting it interrupts the module (the evaluation then fails with `interrupted`). */
  signal: AbortSignal;
  /** Where `ctx.log` lines go (and `ctx.notify`, as `notice: ...`); default: stderr. Ignored when `frontEnd` is given. */
  log?: (text: string) => void;
  /** The whole front end of the call, for a caller that has a terminal to ask `ctx.confirm` on. */
  frontEnd?: FrontEnd;
  /** A module that has not returned by then is interrupted and skipped; default 60 s. */
  timeoutMs?: number;
  /** The models.dev snapshot the built-ins fall back on; default: the one shipped in the binary (models-dev/). Tests and mirrors give their own. */
  snapshot?: CatalogueSnapshot;
}

/** A models.dev snapshot: its date and a provider's raw entry. */
export interface CatalogueSnapshot {
  date: string;
  provider(id: string): Record<string, unknown> | undefined;
}

/** How an evaluation ended: a provider, or the one line that says why there is none. */
export type Evaluation = { provider: ProviderSettings } | { problem: string };
