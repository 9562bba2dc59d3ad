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
  const alias = aliasOf(id);
  const provider = server.kind === "Ollama" ? "ollama" : "local";
  const modelRef = `${provider}/${alias}`;
  const changed = files.map((file) => {
    if (file.path === "config.yaml") return { ...file, content: withServer(file.content, server, alias, id) };
    if (file.path === "agents/starter.md") return { ...file, content: file.content.replace(/^model: replay\/starter$/m, `model: ${modelRef}`) };
    return file;
  });
  return { modelRef, files: changed };
}

/** A YAML key and model reference part that needs no quotes. */
function aliasOf(id: string): string {
  const alias = id.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "");
  return alias === "" ? "default" : alias;
}

function withServer(config: string, server: FoundServer, alias: string, id: string): string {
  const found = `# Found running by \`rienda init\`: ${server.kind}, serving ${server.ids.join(", ")}.`;
  if (server.kind === "Ollama") {
    return config.replace("      qwen3:\n        id: qwen3:8b\n", `      ${alias}: # ${found.slice(2)}\n        id: ${JSON.stringify(id)}\n`);
  }
  return config
    .replace("    base_url: http://127.0.0.1:8080/v1\n", `    base_url: ${server.baseUrl} # ${found.slice(2)}\n`)
    .replace("      default:\n        id: default # llama.cpp answers with its one model whatever the id\n", `      ${alias}:\n        id: ${JSON.stringify(id)}\n`);
}
