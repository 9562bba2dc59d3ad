/**
 * Findings about the model servers on this machine that agents use: one
 * that does not answer (a warning: it may just not be started yet), and a
 * configured model id the server does not serve, with the ids it does;
 * and each used model's context window as the server reports it (asked
 * afresh: doctor keeps nothing in the cache runs use). Asks each server
 * its model list (`GET <base_url>/models`) and the window probes; sends no
 * model request. Servers elsewhere are never contacted.
 */
import type { LoadedConfig } from "../../config/index.ts";
import {
  contextWindowInfo,
  isLocalUrl,
  learnContextWindow,
  servedModels,
  startHintFor,
  type ResolvedModel,
  type ServedModels,
} from "../../providers/index.ts";
import type { ModelUser } from "./model-users.ts";
import type { Finding } from "./types.ts";

/** A used model's context window, as the report shows it. */
export interface WindowRow {
  model: string;
  tokens: number;
  source: string;
}

/** Asks every local server a used model points at, all at once. */
export async function checkLocalServers(
  config: LoadedConfig,
  users: readonly ModelUser[],
): Promise<{ findings: Finding[]; windows: WindowRow[] }> {
  const byUrl = new Map<string, { model: ResolvedModel; users: string[] }[]>();
  for (const user of users) {
    let model: ResolvedModel;
    try {
      model = config.resolveModel(user.ref);
    } catch {
      continue; // the agent and variable checks report why
    }
    if (model.protocol !== "openai_chat_completions" && model.protocol !== "openai_responses") continue;
    if (model.baseUrl === "" || !isLocalUrl(model.baseUrl)) continue;
    const models = byUrl.get(model.baseUrl) ?? [];
    const known = models.find((entry) => entry.model.ref === model.ref);
    if (known) known.users.push(user.label);
    else models.push({ model, users: [user.label] });
    byUrl.set(model.baseUrl, models);
  }
  const urls = [...byUrl.keys()];
  const used = [...byUrl.values()].flat().map((entry) => entry.model);
  const [answers] = await Promise.all([
    Promise.all(urls.map((url) => servedModels(url))),
    Promise.all(used.map((model) => learnContextWindow(model))),
  ]);
  const windows = used.flatMap((model): WindowRow[] => {
    const info = contextWindowInfo(model);
    return info ? [{ model: model.ref, tokens: info.tokens, source: info.source }] : [];
  });
  return {
    findings: urls.flatMap((url, index) => findingsFor(config.path, url, answers[index]!, byUrl.get(url)!)),
    windows,
  };
}

function findingsFor(
  file: string,
  url: string,
  served: ServedModels,
  models: { model: ResolvedModel; users: string[] }[],
): Finding[] {
  const first = models[0]!.model;
  const usedBy = models.flatMap((entry) => entry.users).join(", ");
  if (!served.reachable) {
    return [
      {
        severity: "warning",
        check: "config",
        file,
        key: `providers.${keyPart(first.provider)}.base_url`,
        name: first.provider,
        message: `the model server at ${url} does not answer (${served.reason}); used by ${usedBy}`,
        hint: `${startHintFor(url)}, or set providers.${keyPart(first.provider)}.base_url to where it listens`,
      },
    ];
  }
  if (!served.listed) return [];
  const list = served.ids.length > 0 ? served.ids.join(", ") : "no model";
  return models.flatMap(({ model, users }): Finding[] => {
    if (served.ids.includes(model.wireId)) return [];
    const key = `providers.${keyPart(model.provider)}.models.${keyPart(model.alias)}.id`;
    // llama.cpp answers any id with the one model it runs: worth knowing, not broken.
    if (served.anyId) {
      return [
        {
          severity: "warning",
          check: "config",
          file,
          key,
          name: model.ref,
          message: `"${model.wireId}" is not the id llama.cpp at ${url} serves (${list}); it answers with that model anyway`,
          hint: `set ${key} to ${JSON.stringify(served.ids[0] ?? model.wireId)} so sessions and costs name the model that answered`,
        },
      ];
    }
    return [
      {
        severity: "problem",
        check: "config",
        file,
        key,
        name: model.ref,
        message: `the server at ${url} does not serve "${model.wireId}" (it serves: ${list}); used by ${users.join(", ")}`,
        hint:
          served.ids.length > 0
            ? `set ${key} to one of the ids it serves, or load "${model.wireId}" on the server (ollama pull ${model.wireId})`
            : `load a model on the server, then set ${key} to its id`,
      },
    ];
  });
}

function keyPart(name: string): string {
  return /^[A-Za-z0-9_-]+$/.test(name) ? name : JSON.stringify(name);
}
