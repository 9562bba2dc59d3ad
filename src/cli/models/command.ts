/**
 * `rienda models [--json] [--config PATH]` (new): every model a run can
 * name, from config.yaml and provider modules alike, with its thinking
 * levels, context window and whether its provider has the key it needs.
 * Evaluates every provider module; one that fails is named on stderr and
 * the others are listed (exit 1 then, like doctor, so a script notices).
 */
import { defineCommand } from "../shared/command.ts";
import { loadConfig } from "../../config/index.ts";
import type { ProviderState } from "../../roster/index.ts";
import { modelRows, type ModelRow } from "../../conversation/index.ts";
import { jsonWithControlsEscaped } from "../../ui/index.ts";
import { openRoster } from "../../compose/index.ts";
import { stderrForPeople, stdoutForPeople } from "../shared/for-people.ts";
import { homeDir } from "../shared/home-dir.ts";
import { textTable } from "../shared/text-table.ts";

const args = {
  json: { type: "boolean", description: "Print one JSON array instead of a table" },
  config: { type: "string", description: "Path of config.yaml" },
} as const;

export default defineCommand({
  meta: {
    name: "models",
    description:
      "List every model a run can use (config.yaml and provider modules), with thinking levels and key state.",
  },
  args,
  async run(line) {
    const parsed = line.values;
    const home = homeDir();
    const config = loadConfig({ ...(parsed.config ? { flag: parsed.config } : {}), env: process.env, home });
    const roster = openRoster(config, { home, env: process.env });
    let states: ProviderState[];
    try {
      states = await roster.all();
    } finally {
      await roster.close();
    }
    const rows = modelRows(states);
    const err = stderrForPeople();
    for (const state of states) if (state.kind === "failed") err.write(`rienda: ${state.problem}\n`);
    if (rows.length === 0) err.write("no model is offered: see docs/providers.md\n");
    stdoutForPeople().write(parsed.json ? `${jsonWithControlsEscaped(JSON.stringify(rows))}\n` : table(rows));
    if (states.some((s) => s.kind === "failed")) process.exitCode = 1;
  },
});

function table(rows: readonly ModelRow[]): string {
  const cells = [
    ["MODEL", "FROM", "CONTEXT", "THINKING", "KEY"],
    ...rows.map((r) => [
      r.ref,
      r.origin,
      r.contextWindow === undefined ? "-" : String(r.contextWindow),
      r.thinking.join(",") || "-",
      r.key,
    ]),
  ];
  return textTable(cells);
}
