/**
 * `state.json` (go-current.md §2): the model picked last and the thinking
 * level last picked per model, `{"last_model": "p/m", "last_thinking":
 * {"p/m": "level"}}`. Written by the chats' pickers, read when a new session
 * has no model; every other field is kept. A file that cannot be read or
 * parsed counts as empty: it only remembers a choice, and losing that never
 * fails a run.
 */
import { readFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { sortedJson, writeFileAtomic } from "../atomic-file.ts";
import { RiendaError } from "../errors.ts";
import { isRecord } from "../values.ts";

/** What state.json remembers. */
export interface PickedState {
  lastModel?: string;
  /** `provider/model` -> level. */
  lastThinking: Record<string, string>;
}

/** Where state.json is: `RIENDA_STATE`, else `~/.rienda/state.json`. */
export function statePath(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
  cwd = process.cwd(),
): string {
  const given = env.RIENDA_STATE?.trim();
  if (given) return isAbsolute(given) ? given : resolve(cwd, given);
  return join(home, ".rienda", "state.json");
}

export function readState(path: string): PickedState {
  const document = readDocument(path).value;
  const lastThinking: Record<string, string> = {};
  if (isRecord(document.last_thinking)) {
    for (const [ref, level] of Object.entries(document.last_thinking))
      if (typeof level === "string" && level !== "") lastThinking[ref] = level;
  }
  const last = document.last_model;
  return { ...(typeof last === "string" && last !== "" ? { lastModel: last } : {}), lastThinking };
}

/** Records a pick: the model (and its level, when given), keeping everything else in the file; a damaged file is left as it is (RiendaError). */
export function recordPick(path: string, pick: { model: string; thinking?: string }): void {
  const { value: document, damaged } = readDocument(path);
  if (damaged)
    throw new RiendaError(
      "config",
      `${path}: is not a JSON object, so the pick was not recorded (fix or remove the file)`,
    );
  document.last_model = pick.model;
  if (pick.thinking !== undefined) {
    const levels = isRecord(document.last_thinking) ? { ...document.last_thinking } : {};
    levels[pick.model] = pick.thinking;
    document.last_thinking = levels;
  }
  try {
    writeFileAtomic(path, sortedJson(document), 0o600);
  } catch (cause) {
    throw new RiendaError("config", `${path}: cannot be written: ${(cause as Error).message}`, { cause });
  }
}

function readDocument(path: string): { value: Record<string, unknown>; damaged: boolean } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return { value: {}, damaged: false };
  }
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? { value: { ...value }, damaged: false } : { value: {}, damaged: true };
  } catch {
    return { value: {}, damaged: text.trim() !== "" };
  }
}
