/**
 * Provider modules (go-current.md §2-§3, docs/provider-modules.md): the
 * current Go Rienda's way of declaring a provider, a JavaScript module
 * `~/.rienda/providers/<name>/index.js` whose `module.exports(ctx)` returns
 * the connection and the model roster; and the two built-in modules inside
 * the binary (opencode-go, zai-coding-plan), which read models.dev.
 *
 * Owns: discovery (which modules exist, user modules replacing built-ins),
 * one evaluation of one module, the declaration's rules and their messages,
 * and the built-ins' JavaScript (builtin/).
 *
 * Invariants:
 * - Listing evaluates nothing and never fails: a folder that cannot be
 *   listed is a problem in the listing.
 * - An evaluation never rejects: it gives ProviderSettings (origin "module"
 *   or "built-in", `auth` set, alias = model id, no key: the caller adds it)
 *   or exactly one line, `provider "<name>": <reason>`, and the caller skips
 *   that provider alone.
 * - A module runs in the runtime like a hook: a fresh context, synchronous
 *   ctx, its own folder as working directory; nothing here runs its code.
 *
 * Must not: read credentials, choose a model, or know config.yaml's
 * providers (the roster merges both generations). It prints nothing of its
 * own: problems are returned, and a module's `ctx.log` goes to the log the
 * caller gives (stderr by default).
 */
export { listProviderModules, providersFolder } from "./discover.ts";
export { evaluateProviderModule } from "./evaluate.ts";
export { BUILT_IN_NAMES } from "./built-in-files.ts";
export { MODULE_HTTP_BODY_LIMIT_BYTES, moduleContextData, moduleFrontEnd } from "./module-context.ts";
export type {
  BuiltInModuleEntry,
  CatalogueSnapshot,
  EvaluateOptions,
  Evaluation,
  ListOptions,
  ModuleEntry,
  ModuleListing,
  UserModuleEntry,
} from "./types.ts";
