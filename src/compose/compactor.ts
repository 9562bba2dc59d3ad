/**
 * Wires config.yaml's `compaction:` block into the engine's compactor
 * (engine/compactor.ts holds the logic): the settings, and the model
 * resolver for `compaction.model`.
 */
import type { LoadedConfig } from "../config/index.ts";
import {
  createCompactor as createEngineCompactor,
  type CompactableSession,
  type CompactionPort,
  type ModelPort,
} from "../engine/index.ts";
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
  return createEngineCompactor({
    ...rest,
    policy: fittedPolicy(config.compaction, options.model.contextWindow),
    resolveModel: (ref) => config.resolveModel(ref),
  });
}

/**
 * The compaction settings scaled to a small window (a local server's 4k or
 * 8k): the defaults' 16,384 reserved and 20,000 kept would find every
 * history too long for an 8,192-token window and keep it all. So at most a
 * quarter of the window is reserved and half of it kept verbatim.
 */
export function fittedPolicy<P extends { reserveTokens: number; keepRecentTokens: number }>(
  policy: P,
  window: number | undefined,
): P {
  if (window === undefined || policy.reserveTokens + policy.keepRecentTokens <= window) return policy;
  return {
    ...policy,
    reserveTokens: Math.min(policy.reserveTokens, Math.floor(window / 4)),
    keepRecentTokens: Math.min(policy.keepRecentTokens, Math.floor(window / 2)),
  };
}

/**
 * Compacts the session now, whatever its size (the chat's and rpc's
 * `compact`): the same compactor with a policy that always finds the
 * conversation too long. Returns whether a summary was stored (a branch too
 * short to condense, or a failed summary, stores none).
 */
export async function compactNow(
  options: {
    session: Session;
    config: Pick<LoadedConfig, "compaction" | "resolveModel">;
    model: ResolvedModel;
    modelPort: ModelPort;
  },
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
