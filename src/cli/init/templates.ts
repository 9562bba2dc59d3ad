/**
 * The files `rienda init` writes, as string constants so that they are part
 * of the compiled binary and of the source tree alike: no text imports
 * (`with { type: "text" }` needs a flag under Deno) and no file read at run
 * time. Edit them here; the word-count tool must stay identical to
 * examples/tools/word-count/index.js, which test/e2e/init.test.ts checks.
 */

/** `~/.rienda/config.yaml`: every provider kind commented, the starter agent on replay. */
export const STARTER_CONFIG = `# Rienda configuration: the model providers you use, their models, and
# settings for your tools and hooks. Written by \`rienda init\`; edit freely.
# Reference: docs/config.md. Check your setup with \`rienda doctor\`.
#
# An agent (~/.rienda/agents/<id>.md) names a model as provider/alias, and
# \`rienda run -m provider/alias\` overrides it for one run.
#
# Secrets stay out of this file: \${NAME} is replaced by the environment
# variable NAME. An unset variable only matters when a model of that
# provider is used, so the providers below do no harm until you need them.

providers:
  # Offline: answers from a script instead of a model (no network, no key).
  # The starter agent uses it, so \`rienda run -a starter -p hi\` works now.
  replay:
    protocol: replay
    script: replay/starter.yaml # relative to this file's directory
    models:
      starter: {}

  # Ollama on this machine: \`ollama serve\`, then \`ollama pull qwen3:8b\`.
  ollama:
    preset: ollama # http://127.0.0.1:11434/v1, no key needed
    models:
      qwen3:
        id: qwen3:8b

  # Any other OpenAI-compatible model server, on this machine or on your
  # network, no internet needed: llama.cpp (\`llama-server -m model.gguf
  # --port 8080 --jinja\`), LM Studio (http://127.0.0.1:1234/v1), vLLM
  # (http://HOST:8000/v1). Set base_url to its address and the id to the
  # model it serves, then use model: local/default in an agent.
  local:
    protocol: openai_chat_completions
    base_url: http://127.0.0.1:8080/v1
    models:
      default:
        id: default # llama.cpp answers with its one model whatever the id

  # OpenAI: export OPENAI_API_KEY=sk-...
  openai:
    preset: openai
    api_key: \${OPENAI_API_KEY}
    models:
      gpt-4o: {}

  # Anthropic: export ANTHROPIC_API_KEY=sk-ant-...
  anthropic:
    preset: anthropic
    api_key: \${ANTHROPIC_API_KEY}
    models:
      sonnet:
        id: claude-sonnet-4-5
        max_tokens: 16000

# Long conversations are summarised before they outgrow the model's context
# window. These are the defaults:
# compaction:
#   enabled: true
#   reserve_tokens: 16384
#   keep_recent_tokens: 20000

# Settings for your tools and hooks, keyed by their name; a tool reads them
# as ctx.config.config["<name>"].
# config:
#   word-count: {}
`;

/** `~/.rienda/agents/starter.md`: works offline on the replay provider. */
export const STARTER_AGENT = `---
description: A starter agent. It answers from a replay script until you give it a real model.
model: replay/starter
tools:
  - word-count
---
You are a helpful assistant working in the user's workspace. Use the
word-count tool when asked how long a file is. Answer briefly.
`;

/** `~/.rienda/replay/starter.yaml`: the starter agent's scripted answers. */
export const STARTER_REPLAY = `# The script of the model replay/starter: each item answers one model
# request, in order (docs/providers.md, "Replay"). An agent on a real model
# gets real answers; this one is for trying Rienda with no model at all.
- text: |-
    Hello from Rienda! This answer was read from ~/.rienda/replay/starter.yaml:
    this run used the offline replay provider, so no model was called.
    For another model, set \`model:\` in ~/.rienda/agents/starter.md, or pick one
    for a run, such as
      rienda run -a starter -m ollama/qwen3 -p "How many words are in README.md?"
- text: |-
    This is the second and last scripted answer. One more message in this
    session runs out of turns: replay scripts are for demos and tests.
`;

/** `~/.rienda/tools/word-count/index.js`: byte for byte examples/tools/word-count/index.js (test/e2e/init.test.ts compares them). */
export const WORD_COUNT_TOOL = `// ~/.rienda/tools/word-count/index.js
// Counts the words of a workspace file (an empty file has 0 words).
// \`rienda init\` installs this very file (a test keeps the two identical).
module.exports = {
  description: "Counts the words of a file in the workspace.",
  parameters: {
    type: "object",
    properties: {
      path: { type: "string", description: "Path relative to the workspace." },
    },
    required: ["path"],
    additionalProperties: false,
  },
  execute: function(ctx, args) {
    const words = ctx.file.read(args.path).split(/\\s+/).filter(Boolean);
    return String(words.length);
  },
};
`;
