/**
 * `rienda init`: creates ~/.rienda with a commented starter config.yaml, an
 * agent that works offline (replay), its replay script and the word-count
 * tool. Never overwrites anything; says what it wrote and what it left
 * alone (stdout). Exit 0, or 1 when a file could not be written.
 */
import { defineCommand } from "citty";
import { relative } from "node:path";
import { RiendaError } from "../errors.ts";
import { installStarter, STARTER_AGENT_ID, STARTER_FILES, type InstallReport } from "./init/index.ts";
import { homeDir } from "./home-dir.ts";
import { assertKnownFlags } from "./strict-args.ts";

const args = {} as const;

export default defineCommand({
  meta: { name: "init", description: "Create ~/.rienda with a starter config, agent and tool (never overwrites)." },
  args,
  run({ rawArgs }) {
    const parsed = assertKnownFlags(rawArgs, args, "rienda init").values;
    const report = installStarter(homeDir(), STARTER_FILES);
    process.stdout.write(formatReport(report));
    const configOverride = process.env.RIENDA_CONFIG;
    if (configOverride) process.stderr.write(`note: RIENDA_CONFIG is set, so rienda reads ${configOverride}, not ${report.root}/config.yaml\n`);
    const failed = report.files.filter((file) => file.status === "failed");
    if (failed.length > 0) {
      const what = failed.length === 1 ? "1 file" : `${failed.length} files`;
      throw new RiendaError("config", `init: could not write ${what} (see above); fix the cause and run rienda init again: it keeps what exists`);
    }
  },
});

/** The lines init prints: one per file, then what to do next. */
export function formatReport(report: InstallReport): string {
  const lines: string[] = [];
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
  const hints: Array<[string, string]> = [
    [`rienda run -a ${STARTER_AGENT_ID} -p hi`, `answers offline from replay/${STARTER_AGENT_ID}.yaml (no model, no key)`],
    ["rienda doctor", "checks the config, agents, tools and hooks"],
  ];
  const width = Math.max(...hints.map(([command]) => command.length));
  const configPath = `${report.root}/config.yaml`;
  lines.push(
    "",
    "Next:",
    ...hints.map(([command, what]) => `  ${command.padEnd(width)}  ${what}`),
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
