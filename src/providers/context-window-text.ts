/** How a message names a model's context window: its size and where the figure came from, so the user knows what to change. */
import type { ResolvedModel } from "./types.ts";

/** `8,192 tokens, reported by llama.cpp's GET …/props; set providers.local.models.q.context_window to override`, or the config key. */
export function contextWindowText(model: ResolvedModel & { contextWindow: number }): string {
  const key = `providers.${keyPart(model.provider)}.models.${keyPart(model.alias)}.context_window`;
  const size = `${model.contextWindow.toLocaleString("en-US")} tokens`;
  return model.contextWindowSource ? `${size}, reported by ${model.contextWindowSource}; ${key} overrides it` : `${size}, ${key}`;
}

function keyPart(name: string): string {
  return /^[A-Za-z0-9_-]+$/.test(name) ? name : JSON.stringify(name);
}
