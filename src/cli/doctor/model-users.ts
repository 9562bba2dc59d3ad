/** Who uses which model: every agent's `model:`, and `compaction.model` when compaction is on. */
import type { Agent } from "../../agents/index.ts";
import { splitModelRef, type CompactionSettings, type ProviderSettings } from "../../config/index.ts";

/** One user of a model reference. */
export interface ModelUser {
  /** How findings name it: `agent "coder"` or `compaction.model`. */
  label: string;
  /** The reference as written. */
  ref: string;
  provider: string;
  alias: string;
}

/** Every reference that a run may resolve; malformed ones are left to the agent checks. */
export function modelUsers(
  agents: readonly Pick<Agent, "id" | "model">[],
  compaction: CompactionSettings,
): ModelUser[] {
  const users: ModelUser[] = [];
  const add = (label: string, ref: string) => {
    const parts = splitModelRef(ref);
    if (parts) users.push({ label, ref, provider: parts.provider, alias: parts.alias });
  };
  for (const agent of agents) if (agent.model !== undefined) add(`agent "${agent.id}"`, agent.model);
  if (compaction.enabled && compaction.model) add("compaction.model", compaction.model);
  return users;
}

/**
 * The users of a model that the provider really declares. A user of an
 * unknown provider or alias is reported by the agent checks instead.
 */
export function usersOfProvider(users: readonly ModelUser[], provider: ProviderSettings): ModelUser[] {
  return users.filter((u) => u.provider === provider.name && provider.models.has(u.alias));
}
