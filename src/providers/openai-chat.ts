/** The `openai_chat_completions` adapter: its request builder and stream mapper joined over HTTP. */
import { buildOpenAIChatRequest } from "./openai-chat-request.ts";
import { createOpenAIChatStreamMapper } from "./openai-chat-stream.ts";
import { streamHttp } from "./stream-http.ts";
import { textCallContext } from "./text-call-recovery.ts";
import type { AdapterDeps, ProtocolAdapter } from "./types.ts";

/** The `openai_chat_completions` protocol: OpenAI, OpenRouter, DeepSeek, Ollama, llama.cpp, LM Studio. */
export function createOpenAIChatAdapter(deps: AdapterDeps): ProtocolAdapter {
  return {
    stream: (request, signal) =>
      streamHttp(
        buildOpenAIChatRequest(request),
        createOpenAIChatStreamMapper(textCallContext(request, deps.timing.local)),
        deps,
        signal,
      ),
  };
}
