/**
 * What `/model`, `/agent` and `/thinking` are completed with in the
 * editor: the models offered (listed once per chat, as listing evaluates
 * provider modules), the agents, the current model's thinking levels.
 */
import type { ChatBackend } from "../chat/index.ts";

const models = new WeakMap<ChatBackend, Promise<string[]>>();

export function argumentValues(backend: ChatBackend, command: string): Promise<string[]> {
  if (command === "agent") return Promise.resolve(backend.listAgents().map((a) => a.id));
  if (command === "thinking") return Promise.resolve(backend.thinkingLevels());
  if (command !== "model") return Promise.resolve([]);
  let listed = models.get(backend);
  if (!listed) {
    // A listing that failed is tried again next time.
    listed = backend.listModels().catch(() => {
      models.delete(backend);
      return [];
    });
    models.set(backend, listed);
  }
  return listed;
}
