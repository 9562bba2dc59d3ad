/**
 * Wires config.yaml's `compaction:` block into the engine's compactor
 * (engine/compactor.ts holds the logic): the settings, and the model
 * resolver for `compaction.model`.
 */
import type { LoadedConfig } from "../config/index.ts";
import { createCompactor as createEngineCompactor, type CompactableSession, type CompactionPort, type ModelPort } from "../engine/index.ts";
import type { ResolvedModel } from "../providers/index.ts";
import type { CompactableSession as Session, EngineEvent } from "../engine/index.ts";

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

/**
 * Compacts the session now, whatever its size (the chat's and rpc's
 * `compact`): the same compactor with a policy that always finds the
 * conversation too long. Returns whether a summary was stored (a branch too
 * short to condense, or a failed summary, stores none).
 */
export async function compactNow(
  options: { session: Session; config: Pick<LoadedConfig, "compaction" | "resolveModel">; model: ResolvedModel; modelPort: ModelPort },
  io: { emit(event: EngineEvent): void; signal: AbortSignal },
): Promise<boolean> {
  const { config, model, session } = options;
  const window = model.contextWindow ?? 1;
  const compactor = createEngineCompactor({
    session,
    modelPort: options.modelPort,
    model: { ...model, contextWindow: window },
    policy: { ...config.compaction, enabled: true, reserveTokens: window + 1 },
    resolveModel: (ref) => config.resolveModel(ref),
  });
  const before = session.branch().at(-1)?.id;
  await compactor?.maybeCompact(io.emit, io.signal);
  const last = session.branch().at(-1);
  return last !== undefined && last.id !== before && last.kind === "compaction";
}
