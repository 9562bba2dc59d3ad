/**
 * Every model of the roster as a row (`rienda models`, rpc `get_models`):
 * its origin, context window, thinking levels and whether its provider has
 * the key it needs.
 */
import { resolveProviderModel } from "../config/index.ts";
import type { ResolvedModel } from "../providers/index.ts";
import { thinkingLevels, type ProviderState } from "../roster/index.ts";

/** One listed model. */
export interface ModelRow {
  ref: string;
  provider: string;
  origin: string;
  name?: string;
  contextWindow?: number;
  thinking: string[];
  key: string;
}

/** The rows of every ready provider's models, in the roster's order. */
export function modelRows(states: readonly ProviderState[]): ModelRow[] {
  return states.flatMap(rowsOf);
}

function attempt<T>(work: () => T): T | undefined {
  try {
    return work();
  } catch {
    return undefined;
  }
}

function rowsOf(state: ProviderState): ModelRow[] {
  if (state.kind !== "ready") return [];
  const key = state.key === "missing" ? "missing (rienda auth)" : state.key;
  return [...state.settings.models.keys()].map((alias) => {
    const ref = `${state.listing.name}/${alias}`;
    // Resolved without its key, so a provider still to authenticate shows its levels too.
    const model: ResolvedModel | undefined = attempt(() =>
      resolveProviderModel(state.settings, state.listing.source, ref),
    );
    const settings = state.settings.models.get(alias)!;
    const row: ModelRow = {
      ref,
      provider: state.listing.name,
      origin: state.listing.origin,
      thinking: model ? thinkingLevels(model) : [],
      key,
    };
    if (settings.name !== undefined) row.name = settings.name;
    const window = model?.contextWindow ?? settings.contextWindow;
    if (window !== undefined) row.contextWindow = window;
    return row;
  });
}
