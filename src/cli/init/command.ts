/**
 * `rienda init`: creates ~/.rienda with a commented starter config.yaml, an
 * agent that works offline (replay), its replay script and the word-count
 * tool. When a model server runs on this machine (llama.cpp on 8080,
 * Ollama on 11434, LM Studio on 1234) and no config.yaml exists yet, the
 * starter agent uses the model it serves instead (`--replay` keeps the
 * replay script). Never overwrites anything; says what it wrote and what it
 * left alone (stdout). Exit 0, or 1 when a file could not be written.
 */
import { defineCommand } from "../shared/command.ts";
import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import { RiendaError } from "../../errors.ts";
import { findLocalServers } from "../../providers/index.ts";
import {
  installStarter,
  localStarter,
  STARTER_AGENT_ID,
  STARTER_FILES,
  type FoundServer,
  type InstallReport,
} from "./index.ts";
import { homeDir } from "../shared/home-dir.ts";

const args = {
  replay: {
    type: "boolean",
    description: "Keep the starter agent on its replay script even when a local model server runs",
  },
} as const;

export default defineCommand({
  meta: { name: "init", description: "Create ~/.rienda with a starter config, agent and tool (never overwrites)." },
  args,
  async run(line) {
    const parsed = line.values;
    const home = homeDir();
    // A found server is used only for a new config.yaml: an existing one may not declare its model.
    const fresh =
      !existsSync(join(home, ".rienda", "config.yaml")) &&
      !existsSync(join(home, ".rienda", "agents", `${STARTER_AGENT_ID}.md`));
    const servers = parsed.replay || !fresh ? [] : await findLocalServers();
    const chosen = servers[0];
    const starter = chosen ? localStarter(STARTER_FILES, chosen) : undefined;
    const report = installStarter(home, starter?.files ?? STARTER_FILES);
    process.stdout.write(
      formatReport(
        report,
        chosen && starter ? { server: chosen, modelRef: starter.modelRef, others: servers.slice(1) } : undefined,
      ),
    );
    const configOverride = process.env.RIENDA_CONFIG;
    if (configOverride)
      process.stderr.write(
        `note: RIENDA_CONFIG is set, so rienda reads ${configOverride}, not ${report.root}/config.yaml\n`,
      );
    const failed = report.files.filter((file) => file.status === "failed");
    if (failed.length > 0) {
      const what = failed.length === 1 ? "1 file" : `${failed.length} files`;
      throw new RiendaError(
        "config",
        `init: could not write ${what} (see above); fix the cause and run rienda init again: it keeps what exists`,
      );
    }
  },
});

/** The server the starter agent was pointed at, and the others found. */
export interface FoundLocal {
  server: FoundServer;
  modelRef: string;
  others: FoundServer[];
}

/** The lines init prints: one per file, then what to do next. */
export function formatReport(report: InstallReport, found?: FoundLocal): string {
  const lines: string[] = [];
  if (found) {
    lines.push(
      `found ${found.server.kind} at ${found.server.baseUrl}, serving ${found.server.ids.join(", ")}: the starter agent uses ${found.modelRef}`,
    );
    for (const other of found.others)
      lines.push(`found ${other.kind} at ${other.baseUrl} too, serving ${other.ids.join(", ")}`);
  }
  if (report.createdRoot) lines.push(`created ${report.root}/ (private to you: mode 0700)`);
  for (const file of report.files) {
    if (file.status === "created") lines.push(`created ${file.path}`);
    else if (file.status === "kept") lines.push(`kept    ${file.path} (it already exists; left unchanged)`);
    else lines.push(`FAILED  ${file.path}: ${file.reason}`);
  }
  const created = report.files.filter((file) => file.status === "created").length;
  if (created === 0 && report.files.every((file) => file.status === "kept")) {
    lines.push(`Nothing to write: every starter file already exists in ${report.root}.`);
  }
  const agentFile = report.files.find((file) => relative(report.root, file.path) === `agents/${STARTER_AGENT_ID}.md`);
  const agentPath = agentFile?.path ?? `${report.root}/agents/${STARTER_AGENT_ID}.md`;
  const hints: Array<[string, string]> = found
    ? [
        [
          `rienda run -a ${STARTER_AGENT_ID} -p hi`,
          `asks ${found.modelRef} on ${found.server.kind} (no internet, no key)`,
        ],
        [
          `rienda run -a ${STARTER_AGENT_ID} -m replay/${STARTER_AGENT_ID} -p hi`,
          `answers from replay/${STARTER_AGENT_ID}.yaml instead (no model at all)`,
        ],
        ["rienda doctor", "checks the config, agents, tools and hooks"],
      ]
    : [
        [
          `rienda run -a ${STARTER_AGENT_ID} -p hi`,
          `answers offline from replay/${STARTER_AGENT_ID}.yaml (no model, no key)`,
        ],
        ["rienda doctor", "checks the config, agents, tools and hooks"],
      ];
  const width = Math.max(...hints.map(([command]) => command.length));
  const configPath = `${report.root}/config.yaml`;
  lines.push("", "Next:", ...hints.map(([command, what]) => `  ${command.padEnd(width)}  ${what}`));
  if (found) {
    lines.push(
      `To use another model, set "model:" in ${agentPath} to a model of`,
      `${configPath}. Local servers: docs/providers.md ("Local servers").`,
    );
    return `${lines.join("\n")}\n`;
  }
  lines.push(
    `Then give the agent a real model: in ${agentPath}, set "model:"`,
    `to a model of ${configPath}, such as:`,
    "  ollama/qwen3     Ollama on this machine (ollama serve; ollama pull qwen3:8b)",
    "  local/default    any OpenAI-compatible server on this machine or your network",
    `                   (llama.cpp, LM Studio, vLLM): set its address as base_url of "local"`,
    "  openai/gpt-4o    with OPENAI_API_KEY set; anthropic/sonnet with ANTHROPIC_API_KEY",
    "The first two need no internet. The tour: docs/getting-started.md; local servers:",
    'docs/providers.md ("Local servers").',
  );
  return `${lines.join("\n")}\n`;
}
