/** The example config.yaml of contract.md §2, verbatim (comments included), as a Go-era user has it. */
export const CONTRACT_EXAMPLE = `providers:                     # at least one
  local:                       # provider name: no "/"
    protocol: openai_chat_completions   # or openai_responses | anthropic
    base_url: http://127.0.0.1:11434/v1 # required with protocol
    api_key: sk-...            # may be empty; new: "\${ENV_NAME}" expands from the environment
    headers: { X-Title: rienda }        # optional static headers
    session_header: X-Session-Id        # optional; header carrying the session id
    models:                    # alias -> settings (may be {})
      llama:
        id: llama3.1:8b        # wire id; defaults to the alias
        max_tokens: 8192
        temperature: 0.7       # 0..2
        top_p: 0.9             # 0..1
        context_window: 131072
        thinking_level: medium        # reasoning effort (chat/responses)
        thinking_max_tokens: 2048     # anthropic thinking budget
  openai:
    preset: openai             # XOR protocol; supplies protocol + base_url
    api_key: \${OPENAI_API_KEY}
    models: { gpt-4o: {} }
compaction: { enabled: true, reserve_tokens: 16384, keep_recent_tokens: 20000, model: local/llama }
config:                        # settings for extensions, keyed by tool or hook name
  word-count: { min_length: 3 }
`;

/** A small valid provider block to build variations on. */
export const MINIMAL = `providers:
  local:
    protocol: openai_chat_completions
    base_url: http://127.0.0.1:8080/v1
    models: { m: {} }
`;
