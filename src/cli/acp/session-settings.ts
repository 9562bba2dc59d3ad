/**
 * What an editor can pick in a session (docs/acp.md, "Agents, models,
 * thinking"): the agent as the session's mode (ACP's modes, for clients
 * that know only those) and three config options, `agent` (category
 * `mode`), `model` (the roster's models) and `thinking` (the model's
 * levels, category `thought_level`). Each pick is the chats' switch,
 * recorded in the session as theirs are.
 */
import type { SessionConfigOption, SessionModeState } from "@agentclientprotocol/sdk";
import { RiendaError } from "../../errors.ts";
import type { Conversation } from "../../conversation/index.ts";

/** The agents as ACP modes, the current one selected. */
export function sessionModes(backend: Conversation): SessionModeState {
  const current = backend.status().agent;
  const agents = backend.listAgents();
  const listed = agents.some((agent) => agent.id === current) ? agents : [{ id: current, description: "" }, ...agents];
  return {
    currentModeId: current,
    availableModes: listed.map((agent) => ({
      id: agent.id,
      name: agent.id,
      ...(agent.description ? { description: agent.description } : {}),
    })),
  };
}

/** The three config options with their current values. A roster that cannot be listed offers the current model alone. */
export async function configOptions(backend: Conversation): Promise<SessionConfigOption[]> {
  const status = backend.status();
  const models = await backend.listModels().catch(() => [] as string[]);
  const modelList = models.includes(status.model) ? models : [status.model, ...models];
  const modes = sessionModes(backend);
  return [
    {
      type: "select",
      id: "agent",
      name: "Agent",
      category: "mode",
      currentValue: modes.currentModeId,
      options: modes.availableModes.map((mode) => ({
        value: mode.id,
        name: mode.name,
        ...(mode.description ? { description: mode.description } : {}),
      })),
    },
    {
      type: "select",
      id: "model",
      name: "Model",
      category: "model",
      currentValue: status.model,
      options: modelList.map((model) => ({ value: model, name: model })),
    },
    {
      type: "select",
      id: "thinking",
      name: "Thinking",
      category: "thought_level",
      currentValue: status.thinking ?? "off",
      options: backend.thinkingLevels().map((level) => ({ value: level, name: level })),
    },
  ];
}

/** Applies a pick; a RiendaError (an unknown agent, model or level) changes nothing. Returns the notices of the switch. */
export async function applySetting(backend: Conversation, id: string, value: string): Promise<string[]> {
  switch (id) {
    case "agent":
      await backend.switchAgent(value);
      return [];
    case "model":
      await backend.switchModel(value);
      return [];
    case "thinking":
      return backend.setThinking(value);
    default:
      throw new RiendaError("usage", `unknown config option "${id}" (agent, model or thinking)`);
  }
}
