/**
 * What `sessions import` refuses beyond what loading refuses (issue 39): a
 * file it would take unbounded memory to read, a session with no message,
 * a second header, a tool result no earlier call asked for, attachment data
 * that is not base64 (it would be sent to the provider as it is), and an id
 * that differs only in case from a session already here (on a file system
 * that ignores case they would be one file). Each is a sentence naming what
 * is wrong; nothing is imported.
 */
import { readdirSync } from "node:fs";
import { lineSpans, type ParsedSession } from "./parse-session-bytes.ts";
import { allWorkspaceDirs } from "./workspace-dir.ts";

/** The largest file `sessions import` reads (documented in docs/sessions.md). */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;
/** The longest line it reads: a message with a few PDFs inline fits; a 200 MB line took 2.4 GB to check. */
export const MAX_IMPORT_LINE_BYTES = 64 * 1024 * 1024;

/** Standard base64, padded, as every attachment Rienda stores is. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Why `bytes` must not be parsed at all (too large, a line too long), or undefined. */
export function sizeProblem(bytes: Uint8Array): string | undefined {
  if (bytes.length > MAX_IMPORT_BYTES) return `is larger than ${mib(MAX_IMPORT_BYTES)}, the most sessions import reads`;
  const long = lineSpans(bytes).findIndex((span) => span.end - span.start > MAX_IMPORT_LINE_BYTES);
  return long >= 0
    ? `line ${long + 1} is longer than ${mib(MAX_IMPORT_LINE_BYTES)}, the most sessions import reads in one line`
    : undefined;
}

/** Why the parsed session must not be imported, or undefined. */
export function contentProblem(parsed: ParsedSession): string | undefined {
  const [second] = parsed.extraHeaders ?? [];
  if (second !== undefined) return `line ${second} is a second session header (one file holds one session)`;
  if (parsed.tree.messageCount === 0) return "it holds no message (a header alone): there is nothing to continue";
  const calls = new Set<string>();
  for (const entry of parsed.entries) {
    if (entry.kind !== "message") continue;
    for (const block of entry.blocks) {
      if (block.type === "tool_call") calls.add(block.toolCallId);
      else if (block.type === "tool_result" && !calls.has(block.toolResultCallId)) {
        return `message ${entry.id} holds a result for tool call ${JSON.stringify(block.toolResultCallId)}, which no earlier message made`;
      }
      if (
        block.type === "attachment" &&
        block.data !== undefined &&
        (block.data.length % 4 !== 0 || !BASE64.test(block.data))
      ) {
        return `message ${entry.id}: the data of attachment ${JSON.stringify(block.name)} is not base64`;
      }
    }
  }
  return undefined;
}

/** A session of `home` whose id differs from `id` only in case, or undefined. */
export function caseTwin(home: string, id: string): string | undefined {
  const wanted = `${id.toLowerCase()}.jsonl`;
  for (const dir of allWorkspaceDirs(home)) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    const twin = names.find((name) => name.toLowerCase() === wanted && name !== `${id}.jsonl`);
    if (twin) return twin.slice(0, -".jsonl".length);
  }
  return undefined;
}

function mib(bytes: number): string {
  return `${bytes / 1024 / 1024} MiB`;
}
