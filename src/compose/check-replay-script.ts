/** Reads a replay script the way a run's setup and `rienda doctor` both judge it. */
import { readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { messageOf, RiendaError } from "../errors.ts";
import { parseReplayScript, type ResolvedModel } from "../providers/index.ts";

/** What reading a replay script found: a usable script, or why a run could not use it. */
export type ReplayScriptRead =
  | { kind: "ok" }
  | { kind: "missing" }
  | { kind: "unreadable"; error: unknown }
  | { kind: "invalid"; message: string }
  | { kind: "empty" };

/**
 * Reads and parses the replay script at `path`, as a run's setup and
 * doctor both need it: a script a run could not make its first request
 * from is refused by the one and reported by the other, for the same reasons.
 */
export function readReplayScript(path: string): ReplayScriptRead {
  let source: string;
  try {
    source = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return code === "ENOENT" || code === "ENOTDIR" ? { kind: "missing" } : { kind: "unreadable", error };
  }
  const parsed = parseReplayScript(path, source);
  if (!parsed.ok) return { kind: "invalid", message: parsed.message };
  return parsed.turns.length === 0 ? { kind: "empty" } : { kind: "ok" };
}

/**
 * A replay model's script, checked while a run is set up: a run that cannot
 * make its first request must fail before it writes a session (cli.md).
 * The provider still reads the script on every request (it may be edited
 * between turns); this only refuses one that is missing or broken now.
 */
export function checkReplayScript(model: ResolvedModel, configFile: string): void {
  if (model.protocol !== "replay") return;
  const key = `providers.${model.provider}.script`;
  if (!model.script)
    throw new RiendaError(
      "config",
      `model "${model.ref}" uses protocol replay but names no script (set ${key} in ${configFile})`,
    );
  const path = isAbsolute(model.script) ? model.script : resolve(model.script);
  const read = readReplayScript(path);
  switch (read.kind) {
    case "ok":
      return;
    case "missing":
      throw new RiendaError("config", `replay script ${path} does not exist (${key} in ${configFile})`);
    case "unreadable":
      throw new RiendaError("config", `cannot read replay script ${path}: ${messageOf(read.error)}`);
    case "invalid":
      throw new RiendaError("config", read.message);
    case "empty":
      throw new RiendaError(
        "config",
        `replay script ${path} has no turns, so the run could not get a first answer (${key} in ${configFile})`,
      );
  }
}
