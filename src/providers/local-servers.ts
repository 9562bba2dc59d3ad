/**
 * Model servers on this machine, as `rienda init` and `rienda doctor`
 * look for them: the usual ports of llama.cpp, Ollama and LM Studio, and
 * what one serves (`GET <base>/models`, the OpenAI-compatible list every
 * one of them answers). Only 127.0.0.1 is asked, with a short timeout: no
 * name is resolved and no other host is tried, so both commands stay
 * instant on a machine without network.
 */
import { directForLoopback } from "./direct-fetch.ts";
import type { FetchLike } from "./types.ts";

/** A server kind Rienda knows the usual address of. */
export interface KnownLocalServer {
  kind: "llama.cpp" | "Ollama" | "LM Studio";
  baseUrl: string;
  /** How to start it, for messages. */
  start: string;
}

export const KNOWN_LOCAL_SERVERS: readonly KnownLocalServer[] = [
  {
    kind: "llama.cpp",
    baseUrl: "http://127.0.0.1:8080/v1",
    start: 'Start llama.cpp with "llama-server -m <model.gguf> --port 8080 --jinja"',
  },
  { kind: "Ollama", baseUrl: "http://127.0.0.1:11434/v1", start: 'Start Ollama with "ollama serve"' },
  {
    kind: "LM Studio",
    baseUrl: "http://127.0.0.1:1234/v1",
    start: 'Start LM Studio\'s server (Developer tab, or "lms server start")',
  },
];

/**
 * What a server answered: the model ids it serves (`listed` false when it
 * answered but keeps no list), and whether it is llama.cpp (which answers
 * any id with its model).
 */
export type ServedModels =
  | { reachable: true; listed: boolean; ids: string[]; anyId: boolean }
  | { reachable: false; reason: string };

/** A probe of a server this fast: a local server answers its model list in milliseconds. */
const LIST_TIMEOUT_MS = 1000;

/** The model ids the server at `baseUrl` lists. */
export async function servedModels(baseUrl: string, fetchImpl: FetchLike = directForLoopback): Promise<ServedModels> {
  try {
    const response = await fetchImpl(`${baseUrl.replace(/\/+$/, "")}/models`, {
      method: "GET",
      signal: AbortSignal.timeout(LIST_TIMEOUT_MS),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return { reachable: true, listed: false, ids: [], anyId: false };
    }
    const body = (await response.json()) as { data?: Array<{ id?: unknown; owned_by?: unknown }> };
    const data = Array.isArray(body.data) ? body.data : [];
    return {
      reachable: true,
      listed: Array.isArray(body.data),
      ids: data.flatMap((entry) => (typeof entry.id === "string" ? [entry.id] : [])),
      anyId: data.some((entry) => entry.owned_by === "llamacpp"),
    };
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    return {
      reachable: false,
      reason: /timed? ?out|abort/i.test(text) ? "no answer within a second" : "nothing listens there",
    };
  }
}

/** The start command for a server at `baseUrl`, by its usual port. */
export function startHintFor(baseUrl: string): string {
  let port = "";
  try {
    port = new URL(baseUrl).port;
  } catch {
    // the generic hint
  }
  return KNOWN_LOCAL_SERVERS.find((server) => new URL(server.baseUrl).port === port)?.start ?? "Start the model server";
}

/** The known servers that answer now, with what they serve, in the order of KNOWN_LOCAL_SERVERS. */
export async function findLocalServers(
  fetchImpl: FetchLike = directForLoopback,
): Promise<Array<KnownLocalServer & { ids: string[] }>> {
  const answers = await Promise.all(KNOWN_LOCAL_SERVERS.map((server) => servedModels(server.baseUrl, fetchImpl)));
  return KNOWN_LOCAL_SERVERS.flatMap((server, index) => {
    const answer = answers[index]!;
    return answer.reachable && answer.ids.length > 0 ? [{ ...server, ids: answer.ids }] : [];
  });
}
