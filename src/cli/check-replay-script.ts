import { readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { RiendaError } from "../errors.ts";
import { parseReplayScript, type ResolvedModel } from "../providers/index.ts";

/**
 * A replay model's script, checked while a run is set up: a run that cannot
 * make its first request must fail before it writes a session (cli.md).
 * The provider still reads the script on every request (it may be edited
 * between turns); this only refuses one that is missing or broken now.
 */
export function checkReplayScript(model: ResolvedModel, configFile: string): void {
  if (model.protocol !== "replay") return;
  const key = `providers.${model.provider}.script`;
  if (!model.script) throw new RiendaError("config", `model "${model.ref}" uses protocol replay but names no script (set ${key} in ${configFile})`);
  const path = isAbsolute(model.script) ? model.script : resolve(model.script);
  let source: string;
  try {
    source = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new RiendaError(
      "config",
      code === "ENOENT"
        ? `replay script ${path} does not exist (${key} in ${configFile})`
        : `cannot read replay script ${path}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const parsed = parseReplayScript(path, source);
  if (!parsed.ok) throw new RiendaError("config", parsed.message);
}
