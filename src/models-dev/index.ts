/**
 * The models.dev catalogue (https://models.dev/api.json) as shipped inside
 * the binary: a snapshot made at build time (scripts/models-dev/, `make
 * models-dev-snapshot`; docs/providers.md "The models.dev snapshot"), for
 * the built-in provider modules offline and for the figures (context
 * window, prices) of config.yaml models that do not write them. Never a
 * network request.
 *
 * Invariants: the snapshot is data only, decoded lazily (a provider's entry
 * when it is first asked for; nothing at start-up); what it returns is a
 * fresh copy nobody else sees.
 */
import { GENERATED_SNAPSHOT_DATE } from "./snapshot.generated.ts";
import { providerEntry, providerIds } from "./snapshot.ts";

/** The date the shipped snapshot was taken (YYYY-MM-DD): the newest `last_updated` in it. */
export const SNAPSHOT_DATE: string = GENERATED_SNAPSHOT_DATE;

/** How messages name the snapshot as the source of a figure. */
export const SNAPSHOT_NAME = `the models.dev snapshot of ${SNAPSHOT_DATE}`;

/** The raw models.dev provider object (`{id, name, api, npm, env, models: {...}}`, as in api.json, trimmed to the fields the snapshot keeps), or undefined when the snapshot has none of that id. */
export function snapshotProvider(id: string): Record<string, unknown> | undefined {
  return providerEntry(id);
}

/** Every provider id in the snapshot, sorted. */
export function snapshotProviderIds(): string[] {
  return providerIds();
}

export {
  catalogueFigures,
  type CatalogueEndpoint,
  type CatalogueFigures,
  type CataloguePrices,
  type CataloguePriceTier,
  type CatalogueRates,
} from "./figures.ts";
