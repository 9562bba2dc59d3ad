/**
 * The roster: every provider and model a run can use, from config.yaml
 * (the older generation) and provider modules (the current one, go-current.md),
 * keys from credentials.json, the model a new session runs, thinking levels
 * and state.json (docs/providers.md).
 *
 * Invariants: nothing is evaluated until asked for (a config.yaml model
 * evaluates no module; `acme/...` evaluates `acme` only), each module at
 * most once per roster; a module that fails is reported with its problem
 * and never hides another provider; keys never appear in messages.
 */
export { chooseModel } from "./choose-model.ts";
export { createRoster, unknownProvider, type RosterOptions } from "./create-roster.ts";
export { readState, recordPick, statePath, type PickedState } from "./state-file.ts";
export {
  currentThinking,
  offersThinking,
  THINKING_OFF,
  thinkingLevels,
  thinkingName,
  withThinking,
} from "./thinking.ts";
export type { KeyState, ModuleSource, ProviderListing, ProviderModuleEntry, ProviderState, Roster } from "./types.ts";
