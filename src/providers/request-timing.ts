/**
 * The timeouts and attempts of one model request: what config.yaml set
 * (`timeout`, `idle_timeout`, `retries`) or the defaults, which differ for a
 * server on this machine. A CPU-only llama.cpp or Ollama sends nothing
 * while it reads the prompt: about 20–100 tokens/s on two to eight cores,
 * so a 32k-token conversation takes 5–25 minutes before its first byte. A
 * remote API streams its first event within seconds, and a request that
 * hangs there for 5 minutes is better tried again.
 */
import { isLocalUrl } from "./describe-network-error.ts";
import type { ResolvedModel, StreamTiming } from "./types.ts";

/** A remote provider: first byte and idle gap (Go Rienda's fixed 5 minutes for both). */
export const REMOTE_TIMEOUT_MS = 5 * 60_000;
export const REMOTE_IDLE_TIMEOUT_MS = 5 * 60_000;
/** A server on this machine: long enough for a CPU-only prefill of a long prompt (see above). */
export const LOCAL_TIMEOUT_MS = 30 * 60_000;
/** Once it streams, a local server sends a token every second or faster; 10 minutes covers a swapping machine. */
export const LOCAL_IDLE_TIMEOUT_MS = 10 * 60_000;
/** Contract §7: 5 attempts. */
export const DEFAULT_RETRIES = 4;

/** `model`'s timing with the defaults filled in; `override` (tests) replaces both timeouts. */
export function streamTiming(model: ResolvedModel, overrideMs?: number): StreamTiming {
  const local = model.baseUrl !== "" && isLocalUrl(model.baseUrl);
  const provider = `providers.${/^[A-Za-z0-9_-]+$/.test(model.provider) ? model.provider : JSON.stringify(model.provider)}`;
  const timing = model.timing;
  return {
    timeoutMs: overrideMs ?? timing?.timeoutMs ?? (local ? LOCAL_TIMEOUT_MS : REMOTE_TIMEOUT_MS),
    idleTimeoutMs: overrideMs ?? timing?.idleTimeoutMs ?? (local ? LOCAL_IDLE_TIMEOUT_MS : REMOTE_IDLE_TIMEOUT_MS),
    maxAttempts: 1 + (timing?.retries ?? DEFAULT_RETRIES),
    local,
    keys: timing?.keys ?? {
      timeout: `${provider}.timeout`,
      idleTimeout: `${provider}.idle_timeout`,
      retries: `${provider}.retries`,
    },
  };
}
