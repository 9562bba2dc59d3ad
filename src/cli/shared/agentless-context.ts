/**
 * The `ctx` data of tool calls made with no agent and no run (`rienda tool
 * run`, `rienda mcp serve`; tools.md "The context"): an agent with no name
 * whose tools are the ones offered, and the user's config document;
 * `riendaDir` is `~/.rienda`, where `ctx.cache` and `ctx.store` keep their files.
 */
import type { ContextData } from "../../tools/index.ts";

export function agentlessContext(
  workdir: string,
  sessionId: string,
  tools: string[],
  config: Record<string, unknown>,
  riendaDir: string,
): ContextData {
  return {
    workdir,
    riendaDir,
    session: { id: sessionId, agentId: "", modelId: "", workdir },
    agent: {
      name: "",
      description: "",
      model: "",
      tools,
      hooks: [],
      skills: [],
      agents: [],
      config: {},
      systemPrompt: "",
    },
    config,
  };
}
