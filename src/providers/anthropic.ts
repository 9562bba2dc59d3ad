/** The `anthropic` adapter: its request builder and stream mapper joined over HTTP. */
import { buildAnthropicRequest } from "./anthropic-request.ts";
import { createAnthropicStreamMapper } from "./anthropic-stream.ts";
import { streamHttp } from "./stream-http.ts";
import type { AdapterDeps, ProtocolAdapter } from "./types.ts";

/** The `anthropic` protocol: Anthropic's Messages API. */
export function createAnthropicAdapter(deps: AdapterDeps): ProtocolAdapter {
  return {
    stream: (request, signal) =>
      streamHttp(buildAnthropicRequest(request), createAnthropicStreamMapper(), deps, signal),
  };
}
