/**
 * `rienda models [--json] [--config PATH]` (new): every model a run can
 * name, from config.yaml and provider modules alike, with its thinking
 * levels, context window and whether its provider has the key it needs.
 * Evaluates every provider module; one that fails is named on stderr and
 * the others are listed (exit 1 then, like doctor, so a script notices).
 */
import { defineCommand } from "citty";
import { loadConfig, resolveProviderModel } from "../config/index.ts";
import type { ResolvedModel } from "../providers/index.ts";
import { thinkingLevels, type ProviderState } from "../roster/index.ts";
import { jsonWithControlsEscaped } from "../ui/index.ts";
import { openRoster } from "./compose/open-roster.ts";
import { stderrForPeople, stdoutForPeople } from "./for-people.ts";
import { homeDir } from "./home-dir.ts";
import { assertKnownFlags } from "./strict-args.ts";
import { textTable } from "./text-table.ts";

const args = {
  json: { type: "boolean", description: "Print one JSON array instead of a table" },
  config: { type: "string", description: "Path of config.yaml" },
} as const;

/** One listed model. */
interface ModelRow {
  ref: string;
  provider: string;
  origin: string;
  name?: string;
  contextWindow?: number;
  thinking: string[];
  key: string;
}

export default defineCommand({
  meta: { name: "models", description: "List every model a run can use (config.yaml and provider modules), with thinking levels and key state." },
  args,
  async run({ rawArgs }) {
    const parsed = assertKnownFlags(rawArgs, args, "rienda models").values;
    const home = homeDir();
    const config = loadConfig({ ...(parsed.config ? { flag: parsed.config } : {}), env: process.env, home });
    const roster = openRoster(config, { home, env: process.env });
    let states: ProviderState[];
    try {
      states = await roster.all();
    } finally {
      await roster.close();
    }
    const rows = states.flatMap(rowsOf);
    const err = stderrForPeople();
    for (const state of states) if (state.kind === "failed") err.write(`rienda: ${state.problem}\n`);
    if (rows.length === 0) err.write("no model is offered: see docs/providers.md\n");
    stdoutForPeople().write(parsed.json ? `${jsonWithControlsEscaped(JSON.stringify(rows))}\n` : table(rows));
    if (states.some((s) => s.kind === "failed")) process.exitCode = 1;
  },
});

function attempt<T>(work: () => T): T | undefined {
  try {
    return work();
  } catch {
    return undefined;
  }
}

function rowsOf(state: ProviderState): ModelRow[] {
  if (state.kind !== "ready") return [];
  const key = state.key === "missing" ? "missing (rienda auth)" : state.key;
  return [...state.settings.models.keys()].map((alias) => {
    const ref = `${state.listing.name}/${alias}`;
    // Resolved without its key, so a provider still to authenticate shows its levels too.
    const model: ResolvedModel | undefined = attempt(() => resolveProviderModel(state.settings, state.listing.source, ref));
    const settings = state.settings.models.get(alias)!;
    const row: ModelRow = { ref, provider: state.listing.name, origin: state.listing.origin, thinking: model ? thinkingLevels(model) : [], key };
    if (settings.name !== undefined) row.name = settings.name;
    const window = model?.contextWindow ?? settings.contextWindow;
    if (window !== undefined) row.contextWindow = window;
    return row;
  });
}

function table(rows: readonly ModelRow[]): string {
  const cells = [
    ["MODEL", "FROM", "CONTEXT", "THINKING", "KEY"],
    ...rows.map((r) => [r.ref, r.origin, r.contextWindow === undefined ? "-" : String(r.contextWindow), r.thinking.join(",") || "-", r.key]),
  ];
  return textTable(cells);
}
