/** The `ctx.agent` view of an agent (tools.md "The context"). */
import type { AgentInfo } from "../tools/types.ts";
import type { Agent } from "./types.ts";

/** `name` (the id), the whole frontmatter and `systemPrompt`; a deep copy the caller may hand out. */
export function toAgentInfo(agent: Agent): AgentInfo {
  return {
    name: agent.id,
    description: agent.description,
    model: agent.model,
    tools: [...agent.tools],
    hooks: [...agent.hooks],
    skills: [...agent.skills],
    agents: [...agent.agents],
    config: structuredClone(agent.config),
    systemPrompt: agent.systemPrompt,
  };
}
