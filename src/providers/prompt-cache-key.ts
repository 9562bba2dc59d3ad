/** OpenAI's `prompt_cache_key` for a request: the session id, on api.openai.com only. */
import type { ModelRequest } from "./types.ts";

/**
 * OpenAI routes requests with the same `prompt_cache_key` to the same cache,
 * which raises the hit rate of the long shared prefix of an agent's turns;
 * the session id is that key. Only OpenAI's own endpoint gets it: other
 * servers of these protocols may refuse a field they do not know.
 */
export function promptCacheKey(request: ModelRequest): string | undefined {
  if (request.model.cache === false || request.sessionId === "") return undefined;
  let host = "";
  try {
    host = new URL(request.model.baseUrl).hostname;
  } catch {
    return undefined;
  }
  return host === "api.openai.com" ? request.sessionId : undefined;
}
