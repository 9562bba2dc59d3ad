/**
 * Which agent, model and thinking level a branch runs with: the newest
 * switch of each kind that applies to it. A switch applies to a branch when
 * it is on it (the Go Rienda's shape: a node of the chain, go-current.md §5),
 * or when it hangs beside it from one of its entries (the shape earlier
 * versions of ours wrote; null parent: every branch). "Newest" is the order
 * of the file, which for switches on the chain is also their order from the
 * root, since a parent is always written before what hangs from it.
 */
import type { SwitchEntry } from "./types.ts";

/** A switch and its position among the file's switches. */
export interface PlacedSwitch {
  entry: SwitchEntry;
  seq: number;
}

/** The newest applying switch of each kind; a kind without one is absent. */
export type InForce = Partial<Record<SwitchEntry["kind"], PlacedSwitch>>;

/** The level written for "thinking off". */
export const THINKING_OFF = "off";

/** Levels that mean "thinking off" as read (`off` is what we write). */
const OFF_LEVELS = new Set(["", "off", "none"]);

/** The level a thinking entry stands for; undefined: thinking off. */
export function thinkingLevelOf(level: string | undefined): string | undefined {
  return level === undefined || OFF_LEVELS.has(level.trim().toLowerCase()) ? undefined : level;
}

/** What a switch switches to: the agent id, the model ref or the thinking level as stored. */
export function switchValue(entry: SwitchEntry): string {
  return entry.kind === "agent" ? entry.agentId : entry.kind === "model" ? entry.modelRef : entry.thinkingLevel;
}

/** Keeps `placed` when it is newer than what `found` holds for its kind. */
export function consider(found: InForce, placed: PlacedSwitch): void {
  const had = found[placed.entry.kind];
  if (had === undefined || had.seq < placed.seq) found[placed.entry.kind] = placed;
}

/**
 * Every switch that applies to the branch whose node ids are `onBranch`: the
 * switches on its path, plus the `beside` ones hanging from one of its
 * entries or from nowhere (or, in a hand-made file, hung from themselves),
 * in file order.
 */
export function applyingSwitches(
  onPath: Iterable<PlacedSwitch>,
  beside: readonly PlacedSwitch[],
  onBranch: ReadonlySet<string>,
): PlacedSwitch[] {
  const applying = [...onPath];
  for (const b of beside) {
    if (b.entry.parentId === null || onBranch.has(b.entry.parentId) || onBranch.has(b.entry.id)) applying.push(b);
  }
  return applying.sort((a, b) => a.seq - b.seq);
}
