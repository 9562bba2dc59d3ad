/**
 * The starter files for a model server `rienda init` found running on this
 * machine: the starter agent then uses the model it serves instead of the
 * replay script (which stays, for `-m replay/starter`). Only the provider
 * block of that server and the agent's `model:` change.
 */
import type { KnownLocalServer } from "../../providers/index.ts";
import type { StarterFile } from "./starter-files.ts";

/** A server found, with the ids it serves (the first is used). */
export type FoundServer = KnownLocalServer & { ids: string[] };

/** What the starter agent uses: the provider/alias, and the files that make it so. */
export interface LocalStarter {
  modelRef: string;
  files: StarterFile[];
}

/** The starter files pointed at `server`'s first model. */
export function localStarter(files: readonly StarterFile[], server: FoundServer): LocalStarter {
  const id = server.ids[0]!;
  const provider = server.kind === "Ollama" ? "ollama" : "local";
  // Ollama's qwen3:8b is the alias the starter config already declares (README and docs name ollama/qwen3).
  const alias = server.kind === "Ollama" && id === OLLAMA_STARTER_ID ? "qwen3" : aliasOf(id);
  const modelRef = `${provider}/${alias}`;
  const changed = files.map((file) => {
    if (file.path === "config.yaml") return { ...file, content: withServer(file.content, server, alias, id) };
    if (file.path === "agents/starter.md") {
      const description = `description: A starter agent, on the model ${server.kind} serves on this machine (found by rienda init).`;
      return {
        ...file,
        content: file.content
          .replace(/^model: replay\/starter$/m, `model: ${modelRef}`)
          .replace(/^description: .*$/m, description),
      };
    }
    return file;
  });
  return { modelRef, files: changed };
}

/** The model the starter config declares for Ollama. */
const OLLAMA_STARTER_ID = "qwen3:8b";

/** A YAML key and model reference part that needs no quotes. */
function aliasOf(id: string): string {
  const alias = id.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "");
  return alias === "" ? "default" : alias;
}

/**
 * The config with the server's model declared and every comment true of
 * it: the replay provider is then the `-m replay/starter` one, not the
 * starter agent's. Ollama's other starter model (qwen3) stays declared.
 */
function withServer(config: string, server: FoundServer, alias: string, id: string): string {
  const found = `Found running by \`rienda init\`: ${server.kind}, serving ${server.ids.join(", ")}; the starter agent uses it.`;
  const replayed = config.replace(REPLAY_COMMENT, `${REPLAY_COMMENT_FOUND}\n`);
  if (server.kind === "Ollama") {
    const entry =
      alias === "qwen3"
        ? `      qwen3: # ${found}\n        id: qwen3:8b\n`
        : `      ${alias}: # ${found}\n        id: ${JSON.stringify(id)}\n      qwen3:\n        id: qwen3:8b\n`;
    return replayed.replace("      qwen3:\n        id: qwen3:8b\n", entry);
  }
  return replayed
    .replace(
      "model it serves, then use model: local/default in an agent.",
      `model it serves, then use model: local/${alias} in an agent.`,
    )
    .replace("    base_url: http://127.0.0.1:8080/v1\n", `    base_url: ${server.baseUrl} # ${found}\n`)
    .replace(
      "      default:\n        id: default # llama.cpp answers with its one model whatever the id\n",
      `      ${alias}:\n        id: ${JSON.stringify(id)}\n`,
    );
}

/** The replay provider's comment in the starter config, and what it says once the starter agent uses a found server. */
const REPLAY_COMMENT =
  "  # Offline: answers from a script instead of a model (no network, no key).\n  # The starter agent uses it, so `rienda run -a starter -p hi` works now.\n";
const REPLAY_COMMENT_FOUND =
  "  # Offline: answers from a script instead of a model (no network, no key):\n  # `rienda run -a starter -m replay/starter -p hi`.";
