/**
 * What each recording of test/corpus must turn into (keyed
 * `<protocol>/<file>`), shared by the parser tests and the e2e tests.
 * Written from the recorded payloads, not from our output.
 */
/** What a recording must produce. */
export interface Expected {
  text?: string;
  thinking?: string;
  calls?: Array<{ id?: string; name: string; arguments: unknown }>;
  stop?: "end_turn" | "tool_use" | "max_tokens" | "refusal" | "other";
  usage?: {
    inputTokens: number;
    outputTokens: number;
    cacheReadTokens?: number;
    cacheWriteTokens?: number;
    reasoningTokens?: number;
  };
  model?: string;
  error?: { kind?: string; retryable?: boolean; messageIncludes?: string };
}

export const EXPECTED: Record<string, Expected> = {
  // --- Anthropic Messages ---------------------------------------------------
  "anthropic/text.chunks.txt": {
    text: "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
    stop: "end_turn",
    usage: { inputTokens: 12, outputTokens: 30 },
    model: "claude-sonnet-4-5-20250929",
  },
  "anthropic/tool-no-args.chunks.txt": {
    text: "I'll update the issue list for you.",
    calls: [{ id: "toolu_01QE1WLsSVp5hy5Q3GmGTmjP", name: "updateIssueList", arguments: {} }],
    stop: "tool_use",
    usage: { inputTokens: 565, outputTokens: 48 },
  },
  // mcp_tool_use / mcp_tool_result run on Anthropic's side: text only, no call for us.
  "anthropic/mcp.1.chunks.txt": {
    text: "The echo tool responded back with: **hello world**\n\nIt simply echoed back the exact message that was sent to it.",
    calls: [],
    stop: "end_turn",
    usage: { inputTokens: 1250, outputTokens: 83 },
  },
  "anthropic/message-delta-input-tokens.chunks.txt": {
    text: "pong",
    stop: "end_turn",
    usage: { inputTokens: 61, outputTokens: 2 },
    model: "claude-opus-4-5-20251101",
  },
  // A server_tool_use block alone: its input deltas are not a call of ours.
  "anthropic/code-execution-empty-first-delta.chunks.txt": {
    text: "",
    calls: [],
    stop: "other",
    usage: { inputTokens: 10, outputTokens: 12 },
  },
  "anthropic/json-tool.1.chunks.txt": {
    calls: [
      {
        id: "toolu_01KFbKqPYSuAKujiL6mTfzYA",
        name: "json",
        arguments: { elements: [{ location: "San Francisco", temperature: 58, condition: "sunny" }] },
      },
    ],
    stop: "tool_use",
    usage: { inputTokens: 849, outputTokens: 47 },
    model: "claude-haiku-4-5-20251001",
  },
  "anthropic/clear-thinking.1.chunks.txt": {
    thinking: "The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185",
    text: "925 ÷ 5 = 185",
    stop: "end_turn",
    usage: { inputTokens: 69, outputTokens: 53 },
  },
  // Claude Sonnet 5 (adaptive thinking, display summarized): the summary as thinking, its signature kept; thinking tokens reported apart.
  "anthropic/claude-sonnet-5-reasoning-summarized.chunks.txt": {
    thinking:
      "I'm working through the Euclidean algorithm to find the GCD of 1071 and 462, applying successive division until I reach a remainder of zero, which gives me 21 as the greatest common divisor.",
    stop: "end_turn",
    usage: { inputTokens: 47, outputTokens: 373, reasoningTokens: 62 },
    model: "claude-sonnet-5",
  },
  "anthropic/issue-10781.1.chunks.txt": {
    text: "Let me check.",
    calls: [{ id: "toolu_01Ni1uw4HXYxUhc4iFMqx7yY", name: "get_weather", arguments: { city: "San Francisco" } }],
    stop: "tool_use",
    usage: { inputTokens: 624, outputTokens: 59 },
  },
  "anthropic/issue-11719-quoted-tool-input.chunks.txt": {
    calls: [
      {
        name: "website_update",
        arguments: {
          website_path: "/home/user/pace-landing",
          tasks: [
            {
              description:
                'Today you post every run to Strava, but Strava does not answer the question: "What should I do next after this run?". It is a great log, but it is not adaptive.',
              type: "feature",
              passes: false,
            },
          ],
        },
      },
    ],
    stop: "tool_use",
    usage: { inputTokens: 912, outputTokens: 118 },
  },
  "anthropic/thinking-part-redacted-stream.cassette.yaml": {
    thinking: "",
    text: "I notice that you've sent what appears to be some kind of test string or command. I don't have any special \"magic string\" triggers or backdoor commands that would expose internal systems or change my behavior.\n\nI'm Claude, an AI assistant created by Anthropic to be helpful, harmless, and honest. How can I assist you today with a legitimate task or question?",
    stop: "end_turn",
    usage: { inputTokens: 92, outputTokens: 189 },
    model: "claude-sonnet-4-5-20250929",
  },
  // server_tool_use web_fetch with its web_fetch_tool_result between two text blocks: no call for us.
  "anthropic/web-fetch-tool.1.chunks.txt": {
    calls: [],
    stop: "end_turn",
    usage: { inputTokens: 4230, outputTokens: 446 },
    model: "claude-sonnet-4-20250514",
  },
  // --- Chat Completions -----------------------------------------------------
  // Qwen / DashScope repeats "id": "" on every fragment after the first.
  "openai_chat_completions/alibaba-tool-call.chunks.txt": {
    calls: [{ id: "call_eee11723464a4b9eb8cee71d", name: "weather", arguments: { location: "San Francisco" } }],
    stop: "tool_use",
    usage: { inputTokens: 295, outputTokens: 22 },
    model: "qwen3-max",
  },
  // Mistral: a whole call without `index`.
  "openai_chat_completions/mistral-tool-call.chunks.txt": {
    calls: [{ id: "gSIMJiOkT", name: "weather", arguments: { location: "San Francisco" } }],
    stop: "tool_use",
    usage: { inputTokens: 124, outputTokens: 22 },
    model: "mistral-small-latest",
  },
  "openai_chat_completions/mistral-incremental-tool-call.chunks.txt": {
    calls: [
      { id: "chatcmpl-tool-9f149c74c42f265b", name: "webSearchTool", arguments: { query: "current Berlin weather" } },
    ],
    stop: "tool_use",
    usage: { inputTokens: 171, outputTokens: 14, cacheReadTokens: 128 },
  },
  // Magistral: `content` as a list of thinking and text parts.
  "openai_chat_completions/mistral-reasoning.chunks.txt": {
    thinking: "The user is asking for 2+2. This is basic arithmetic. 2+2=4.",
    text: "2 + 2 = 4",
    stop: "end_turn",
    usage: { inputTokens: 10, outputTokens: 46 },
    model: "magistral-medium-2507",
  },
  "openai_chat_completions/groq-tool-call.chunks.txt": {
    calls: [{ id: "tk85n1k4m", name: "weather", arguments: {} }],
    stop: "tool_use",
    usage: { inputTokens: 210, outputTokens: 15 },
    model: "llama-3.3-70b-versatile",
  },
  "openai_chat_completions/deepseek-tool-call.chunks.txt": {
    thinking: "The user asks about the weather in San Francisco. I should use the weather tool.",
    calls: [{ id: "call_00_IhCAliIHtM9gKpgfqbBV9873", name: "weather", arguments: { location: "San Francisco" } }],
    stop: "tool_use",
    usage: { inputTokens: 374, outputTokens: 61, cacheReadTokens: 256, reasoningTokens: 17 },
    model: "deepseek-v4-flash",
  },
  "openai_chat_completions/xai-tool-call.chunks.txt": {
    thinking: "First, the user is",
    calls: [{ id: "call_55117580", name: "weather", arguments: { location: "San Francisco" } }],
    stop: "tool_use",
    usage: { inputTokens: 291, outputTokens: 26, cacheReadTokens: 290, reasoningTokens: 196 },
    model: "grok-3-mini",
  },
  // Azure: a first chunk with no choices and an empty model (content filter results).
  "openai_chat_completions/azure-model-router.1.chunks.txt": {
    text: "Capital of Denmark.",
    stop: "end_turn",
    usage: { inputTokens: 15, outputTokens: 78, reasoningTokens: 64 },
    model: "gpt-5-nano-2025-08-07",
  },
  // xAI through the Vercel AI Gateway: finish_reason, a provider_metadata delta and usage in one chunk.
  "openai_chat_completions/xai-gateway-finish-with-usage.chunks.txt": {
    text: "OK",
    stop: "end_turn",
    usage: { inputTokens: 675, outputTokens: 1, cacheReadTokens: 674 },
    model: "spacexai/grok-4.1-fast-non-reasoning",
  },
  // Recorded by this project from a real llama-server (Debian llama.cpp 0.7.0, b11669) running the puppet model of test/local.
  "openai_chat_completions/llamacpp-puppet-text.sse": {
    text: "Hello from the puppet model.",
    stop: "end_turn",
    usage: { inputTokens: 61, outputTokens: 7, cacheReadTokens: 28 },
    model: "puppet",
  },
  "openai_chat_completions/llamacpp-puppet-tool-call.sse": {
    calls: [{ id: "hIWSzYzuqDzND4KiPbBYgf4jqI7Webwk", name: "shell", arguments: { command: "echo puppet-ok" } }],
    stop: "tool_use",
    usage: { inputTokens: 677, outputTokens: 8, cacheReadTokens: 37 },
    model: "puppet",
  },
  "openai_chat_completions/llamacpp-puppet-after-tool-result.sse": {
    text: "Tool result received: done!",
    stop: "end_turn",
    usage: { inputTokens: 724, outputTokens: 7, cacheReadTokens: 684 },
    model: "puppet",
  },
  // The call named a tool the request did not offer: llama.cpp's grammar refuses it mid-stream, as an error chunk.
  // A request the server can never serve: not retried (issue 40).
  "openai_chat_completions/llamacpp-puppet-grammar-error.sse": {
    error: { kind: "invalid_request", retryable: false, messageIncludes: "Unexpected empty grammar stack" },
  },
  // llama-server's last events: an empty delta with finish_reason and its timings, no usage (none was asked for).
  "openai_chat_completions/llamacpp-finish-timings.chunks.txt": { text: "!", stop: "end_turn", model: "gpt-oss" },
  // OpenRouter: keep-alive comments, reasoning (with reasoning_details), finish "length", then an error chunk (400).
  "openai_chat_completions/openrouter-length-then-error.cassette.yaml": {
    error: { kind: "other", retryable: false, messageIncludes: "Token limit reached" },
  },
  "openai_chat_completions/deepseek-live-usage-length.chunks.txt": {
    text: "sanitized",
    stop: "max_tokens",
    usage: { inputTokens: 88, outputTokens: 4, reasoningTokens: 4 },
  },
  // Ollama: each whole call in one chunk, parallel calls at index 0 and 1, no usage.
  "openai_chat_completions/ollama-parallel-tool-calls.chunks.txt": {
    calls: [
      { id: "call_wteop8bt", name: "run_command", arguments: { command: "ls" } },
      { id: "call_rk2xye1l", name: "run_command", arguments: { command: "ls -l" } },
    ],
    stop: "tool_use",
    model: "qwen2.5-coder:7b-instruct-q8_0",
  },
  // Kimi (Moonshot): reasoning_content, usage both in the finishing choice and in a last chunk.
  "openai_chat_completions/kimi-usage-live.chunks.txt": {
    thinking:
      'The user is asking me to reply with exactly "OK". This is a simple request with no ambiguity. I should just respond with "OK" and nothing else.',
    text: "OK",
    stop: "end_turn",
    usage: { inputTokens: 90, outputTokens: 50, cacheReadTokens: 90, reasoningTokens: 33 },
    model: "kimi-k3",
  },
  // vLLM: name alone in the first fragment, arguments in three, model "".
  "openai_chat_completions/vllm-tool-call.chunks.txt": {
    calls: [
      { id: "chatcmpl-tool-ca99dda515524c6abe47d1ea22813507", name: "run_command", arguments: { command: "ls" } },
    ],
    stop: "tool_use",
  },
  "openai_chat_completions/ollama-text.chunks.txt": {
    text: "My name is Neo Vim.",
    stop: "end_turn",
    model: "qwen2.5-coder:7b-instruct-q8_0",
  },
  // --- Responses ------------------------------------------------------------
  "openai_responses/issue-19493-gpt-5.1-tool-call.chunks.txt": {
    calls: [{ id: "call_2FQdm3Br7Qb35YUBSkDR7kue", name: "get_weather", arguments: { city: "Beijing" } }],
    stop: "tool_use",
    usage: { inputTokens: 45, outputTokens: 25 },
    model: "gpt-5.1-2025-11-13",
  },
  "openai_responses/openai-error.1.chunks.txt": {
    error: { kind: "other", retryable: false, messageIncludes: "You exceeded your current quota" },
  },
  "openai_responses/openai-error-null-code.1.chunks.txt": {
    error: { kind: "server", retryable: true, messageIncludes: "Sorry, something went wrong." },
  },
  "openai_responses/compatible-basic-text.1.chunks.txt": {
    text: "Code in silence,\nBugs emerge at runtime—\nConsole dot log.",
    stop: "end_turn",
    usage: { inputTokens: 28, outputTokens: 21 },
    model: "grok-2-1212",
  },
  // Azure OpenAI: content_filters in the responses, arguments deltas carrying obfuscation padding.
  "openai_responses/azure-tool-call.1.chunks.txt": {
    text: "",
    calls: [{ id: "call_H5DxLSFnsGhiROnUiDHmgyc8", name: "weather", arguments: { location: "San Francisco" } }],
    stop: "tool_use",
    usage: { inputTokens: 45, outputTokens: 24 },
    model: "gpt-5.1",
  },
  "openai_responses/reasoning-encrypted-content.1.chunks.txt": {
    thinking:
      "**Calculating step-by-step using calculator**\n\nI'll compute 12 plus 7, then multiply the result by 3, and finally multiply that by 10, reporting the final product.",
    calls: [{ id: "call_AB6AaRZ1FYZB2RwS6A5vbdqn", name: "calculator", arguments: { a: 12, b: 7, op: "add" } }],
    stop: "tool_use",
    usage: { inputTokens: 134, outputTokens: 28 },
    model: "gpt-5.1-codex-max",
  },
};
