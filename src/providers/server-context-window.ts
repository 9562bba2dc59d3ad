/**
 * The context window a local server really uses, asked of the server when
 * config.yaml gives no `context_window` (docs/providers.md "Local
 * servers"). A server on this machine truncates a prompt longer than its
 * window without a word (Ollama's default is 4096 tokens whatever the
 * model could take), so knowing the figure lets compaction and the checks
 * before a request work. Only servers on this machine are asked: a run to a
 * remote provider never waits on this. Every probe is one short request,
 * all sent at once; a server that answers none leaves the window unknown.
 * The same answers say what the model takes as input (server-input.ts), so
 * an image to a text-only model is refused before the request.
 */
import { isLocalUrl } from "./describe-network-error.ts";
import { directForLoopback } from "./direct-fetch.ts";
import { keepFacts, keptFacts, type KeptFacts } from "./server-facts-cache.ts";
import type { ServerFacts } from "./server-facts.ts";
import { serverInput } from "./server-input.ts";
import type { FetchLike, ResolvedModel } from "./types.ts";

/** How long one probe may take: a local server answers these in milliseconds, or is busy loading. */
const PROBE_TIMEOUT_MS = 1500;
/** Ollama's context when it reports none for a model not loaded yet (its docs: 4k below 24 GiB of VRAM). */
const OLLAMA_DEFAULT_CONTEXT = 4096;

/** Server and model -> what it answered, for the life of the process (the only module-level state of providers/). */
const known = new Map<string, Promise<KeptFacts>>();

/** Where the facts may be kept between processes, and how to ask. */
export interface LearnOptions {
  /** The home whose `~/.rienda/cache/` keeps them (server-facts-cache.ts); none: asked by every process. */
  home?: string;
  fetchImpl?: FetchLike;
}

/**
 * Fills in `model.contextWindow` from its server when config.yaml gives
 * none, and `model.serverInput`, when the server is on this machine; asked
 * once per server and model in a process (a chat's later turns and its
 * subagents reuse it), and kept for SERVER_FACTS_TTL_MS in the cache for
 * the processes after it.
 */
export async function learnContextWindow(model: ResolvedModel, options: LearnOptions = {}): Promise<void> {
  if (model.baseUrl === "" || !isLocalUrl(model.baseUrl)) return;
  if (model.protocol !== "openai_chat_completions" && model.protocol !== "openai_responses") return;
  const key = `${model.baseUrl}\n${model.wireId}`;
  let probe = known.get(key);
  if (!probe) known.set(key, (probe = factsOf(model, options)));
  const found = await probe;
  if (found.input) model.serverInput = found.input;
  if (!found.window || model.contextWindow !== undefined) return;
  model.contextWindow = found.window.tokens;
  model.contextWindowSource = found.window.source;
  model.contextWindowAskedAt = found.askedAt;
}

/** The facts kept in the cache while fresh, else asked of the server (and kept). */
async function factsOf(model: ResolvedModel, options: LearnOptions): Promise<KeptFacts> {
  const { home } = options;
  const kept = home === undefined ? undefined : keptFacts(home, model.baseUrl, model.wireId);
  if (kept) return kept;
  const asked = await askServer(model.baseUrl, model.wireId, options.fetchImpl ?? directForLoopback);
  return home === undefined
    ? { ...asked, askedAt: new Date().toISOString() }
    : keepFacts(home, model.baseUrl, model.wireId, asked);
}

/** Asks every kind of server at once; the most exact figure wins. */
export async function askServer(baseUrl: string, wireId: string, fetchImpl: FetchLike): Promise<ServerFacts> {
  const root = serverRoot(baseUrl);
  const api = baseUrl.replace(/\/+$/, "");
  const get = (url: string) => getJson(fetchImpl, url, { method: "GET" });
  const post = (url: string, body: unknown) =>
    getJson(fetchImpl, url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const [props, ps, show, lmstudio, models] = await Promise.all([
    get(`${root}/props`),
    get(`${root}/api/ps`),
    post(`${root}/api/show`, { model: wireId }),
    get(`${root}/api/v0/models/${encodeURIComponent(wireId)}`),
    get(`${api}/models`),
  ]);
  const entry = modelEntry(models, wireId);
  const input = serverInput(entry, `${api}/models`, show, `${root}/api/show`);
  const candidates: Array<[unknown, string]> = [
    [path(props, "default_generation_settings", "n_ctx"), `llama.cpp's GET ${root}/props`],
    [ollamaLoaded(ps, wireId), `Ollama's GET ${root}/api/ps (the model as loaded)`],
    [ollamaNumCtx(show), `Ollama's POST ${root}/api/show (num_ctx)`],
    [path(lmstudio, "loaded_context_length"), `LM Studio's GET ${root}/api/v0/models`],
    [path(entry, "max_model_len"), `GET ${api}/models (max_model_len)`],
    [path(entry, "meta", "n_ctx"), `GET ${api}/models (meta.n_ctx)`],
    [path(lmstudio, "max_context_length"), `LM Studio's GET ${root}/api/v0/models`],
    [
      show !== undefined ? OLLAMA_DEFAULT_CONTEXT : undefined,
      "Ollama's default for a model it reports no num_ctx for (OLLAMA_CONTEXT_LENGTH on the server changes it)",
    ],
  ];
  const found = candidates.find(([value]) => typeof value === "number" && Number.isInteger(value) && value > 0);
  return {
    ...(found ? { window: { tokens: found[0] as number, source: found[1] } } : {}),
    ...(input ? { input } : {}),
  };
}

/** The server's own address: the base URL without its API path (`/v1`, `/api/v1`). */
function serverRoot(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.pathname = url.pathname.replace(/\/+$/, "").replace(/\/(api\/)?v\d+$/, "");
  url.search = "";
  return url.toString().replace(/\/+$/, "");
}

async function getJson(fetchImpl: FetchLike, url: string, init: RequestInit): Promise<unknown> {
  try {
    const response = await fetchImpl(url, { ...init, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    return (await response.json()) as unknown;
  } catch {
    return undefined;
  }
}

function path(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** `/v1/models`' entry for `wireId` (vLLM and llama.cpp list their figures there). */
function modelEntry(models: unknown, wireId: string): unknown {
  const data = path(models, "data");
  if (!Array.isArray(data)) return undefined;
  return data.find((entry) => path(entry, "id") === wireId);
}

/** Ollama's `/api/ps`: the context a loaded model runs with. */
function ollamaLoaded(ps: unknown, wireId: string): unknown {
  const loaded = path(ps, "models");
  if (!Array.isArray(loaded)) return undefined;
  const names = new Set([wireId, wireId.includes(":") ? wireId : `${wireId}:latest`]);
  const entry = loaded.find(
    (model) => names.has(String(path(model, "name"))) || names.has(String(path(model, "model"))),
  );
  return path(entry, "context_length");
}

/** Ollama's `/api/show`: `num_ctx` from the model's parameters (`num_ctx 8192` lines), which it really uses. */
function ollamaNumCtx(show: unknown): unknown {
  const parameters = path(show, "parameters");
  if (typeof parameters !== "string") return undefined;
  const match = /^\s*num_ctx\s+(\d+)\s*$/m.exec(parameters);
  return match ? Number(match[1]) : undefined;
}
