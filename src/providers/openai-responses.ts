/** The `openai_responses` adapter: its request builder and stream mapper joined over HTTP. */
import { buildOpenAIResponsesRequest } from "./openai-responses-request.ts";
import { createOpenAIResponsesStreamMapper } from "./openai-responses-stream.ts";
import { streamHttp } from "./stream-http.ts";
import type { AdapterDeps, ProtocolAdapter } from "./types.ts";

/** The `openai_responses` protocol: OpenAI's Responses API (the `openai` preset). */
export function createOpenAIResponsesAdapter(deps: AdapterDeps): ProtocolAdapter {
  return {
    stream: (request, signal) =>
      streamHttp(buildOpenAIResponsesRequest(request), createOpenAIResponsesStreamMapper(), deps, signal),
  };
}
