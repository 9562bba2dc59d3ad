/**
 * Wires config.yaml's `compaction:` block into the engine's compactor
 * (engine/compactor.ts holds the logic): the settings, and the model
 * resolver for `compaction.model`.
 */
import type { LoadedConfig } from "../config/index.ts";
import { createCompactor as createEngineCompactor, type CompactableSession, type CompactionPort, type ModelPort } from "../engine/index.ts";
import type { ResolvedModel } from "../providers/index.ts";

/** The compaction port of a run; none when compaction cannot apply. */
export function createCompactor(options: {
  session: CompactableSession;
  config: Pick<LoadedConfig, "compaction" | "resolveModel">;
  model: ResolvedModel;
  modelPort: ModelPort;
}): CompactionPort | undefined {
  const { config, ...rest } = options;
  return createEngineCompactor({ ...rest, policy: config.compaction, resolveModel: (ref) => config.resolveModel(ref) });
}
