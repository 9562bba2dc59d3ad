/**
 * The standard fetch, except that a server on this machine (localhost,
 * 127.x, ::1) is reached directly, never through HTTP_PROXY/HTTPS_PROXY:
 * a proxy cannot reach the user's loopback, and the failure then read
 * "nothing is listening on 127.0.0.1:11434" while Ollama ran. Go Rienda
 * (Go's net/http) never proxied loopback either. `proxy: false` is Bun's
 * switch for one request; other runtimes ignore the field.
 */
import { isLocalUrl } from "./describe-network-error.ts";

export function directForLoopback(input: string, init: RequestInit): Promise<Response> {
  return fetch(input, isLocalUrl(input) ? ({ ...init, proxy: false } as RequestInit) : init);
}
