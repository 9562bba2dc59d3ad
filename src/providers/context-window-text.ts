/** How a message names a model's context window: its size and where the figure came from, so the user knows what to change. */
import type { ResolvedModel } from "./types.ts";

/** `8,192 tokens, reported by llama.cpp's GET …/props; set providers.local.models.q.context_window to override`, or the config key. */
export function contextWindowText(model: ResolvedModel & { contextWindow: number }): string {
  const key = `providers.${keyPart(model.provider)}.models.${keyPart(model.alias)}.context_window`;
  const size = `${model.contextWindow.toLocaleString("en-US")} tokens`;
  return model.contextWindowSource
    ? `${size}, reported by ${model.contextWindowSource}; ${key} overrides it`
    : `${size}, ${key}`;
}

/** The window as `run_start` shows it: its size, where it came from, and when the server was asked (its answer is kept a while). */
export interface ContextWindowInfo {
  tokens: number;
  source: string;
  askedAt?: string;
}

/** The model's window for `run_start`; undefined when it is not known. */
export function contextWindowInfo(model: ResolvedModel): ContextWindowInfo | undefined {
  if (model.contextWindow === undefined) return undefined;
  const key = `providers.${keyPart(model.provider)}.models.${keyPart(model.alias)}.context_window`;
  return {
    tokens: model.contextWindow,
    source: model.contextWindowSource ?? key,
    ...(model.contextWindowSource && model.contextWindowAskedAt ? { askedAt: model.contextWindowAskedAt } : {}),
  };
}

function keyPart(name: string): string {
  return /^[A-Za-z0-9_-]+$/.test(name) ? name : JSON.stringify(name);
}
