/**
 * The models.dev catalogue (https://models.dev/api.json) as shipped inside
 * the binary: a snapshot made at build time, for the built-in provider
 * modules offline and for the figures (context window, prices) of
 * config.yaml models that do not write them. Never a network request.
 *
 * Invariants: the snapshot is data only, read lazily on first use; what it
 * returns is a fresh copy nobody else sees.
 */

/** The date the shipped snapshot was taken (YYYY-MM-DD); empty while none is shipped. */
export const SNAPSHOT_DATE = "";

/** The raw models.dev provider object (`{id, name, api, npm, env, models: {...}}`, as in api.json), or undefined when the snapshot has none of that id. */
export function snapshotProvider(_id: string): Record<string, unknown> | undefined {
  return undefined;
}
