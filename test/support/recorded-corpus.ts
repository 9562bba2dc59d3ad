/**
 * The corpus of streams recorded from real providers by other projects
 * (test/corpus/<protocol>/, origins in test/corpus/INDEX.md), turned into
 * the SSE bytes a server sent. Two storage forms occur:
 *
 * - `*.chunks.txt` (Vercel AI SDK fixtures): one recorded event payload per
 *   line, exactly as received. The SSE framing around them was not kept by
 *   the recorder, so it is rebuilt the way each vendor frames: Anthropic
 *   and Responses send `event: <type>` before each `data:` line; Chat
 *   Completions sends bare `data:` lines and ends with `data: [DONE]`.
 * - `*.cassette.yaml` (VCR cassettes of pydantic-ai): the HTTP body as
 *   received, framing and padding included; used byte for byte.
 * - `*.sse`: a whole body recorded by this project from a real server
 *   (`curl -N`), used byte for byte.
 *
 * Standalone on purpose (no src/ imports), like the provider server.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

export const CORPUS_DIR = join(import.meta.dir, "../corpus");

export type CorpusProtocol = "anthropic" | "openai_chat_completions" | "openai_responses";

/** One recorded stream: where it lives and the bytes a server sent. */
export interface Recording {
  protocol: CorpusProtocol;
  file: string;
  /** The whole SSE body. */
  body: string;
}

/** Every recording of the corpus, by protocol and file name. */
export function listRecordings(): Recording[] {
  const out: Recording[] = [];
  for (const protocol of ["anthropic", "openai_chat_completions", "openai_responses"] as const) {
    for (const file of readdirSync(join(CORPUS_DIR, protocol)).sort()) out.push(...recordingsOf(protocol, file));
  }
  return out;
}

/** The recording stored in `file` (a cassette may hold several; each becomes one `file#n`). */
export function recording(protocol: CorpusProtocol, file: string): Recording {
  const found = recordingsOf(protocol, file.split("#")[0] ?? file).find((r) => r.file === file);
  if (!found) throw new Error(`recorded-corpus: no recording ${protocol}/${file}`);
  return found;
}

function recordingsOf(protocol: CorpusProtocol, file: string): Recording[] {
  const text = readFileSync(join(CORPUS_DIR, protocol, file), "utf8");
  if (file.endsWith(".chunks.txt")) return [{ protocol, file, body: frame(protocol, text) }];
  if (file.endsWith(".sse")) return [{ protocol, file, body: text }];
  if (file.endsWith(".cassette.yaml")) {
    const cassette = parse(text) as {
      interactions: Array<{ response: { body: { content?: unknown; string?: unknown } } }>;
    };
    const bodies = cassette.interactions.map(
      (interaction) => interaction.response.body.content ?? interaction.response.body.string,
    );
    const streams = bodies.filter((body): body is string => typeof body === "string" && /^(event|data):/m.test(body));
    return streams.map((body, n) => ({ protocol, file: streams.length === 1 ? file : `${file}#${n + 1}`, body }));
  }
  return [];
}

function frame(protocol: CorpusProtocol, text: string): string {
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  if (protocol === "openai_chat_completions")
    return lines.map((line) => `data: ${line}\n\n`).join("") + "data: [DONE]\n\n";
  return lines
    .map((line) => `event: ${(JSON.parse(line) as { type?: string }).type ?? "message"}\ndata: ${line}\n\n`)
    .join("");
}
