/**
 * `rienda doctor [--json] [-C DIR] [--config PATH]`: checks the config,
 * every agent, tool and hook, the workspace's instructions and the session
 * permissions, and prints each finding with its file and a fix (stdout).
 * Exit 0 when there is no problem (warnings allowed), 1 otherwise. Reads
 * only: never writes a file, never sends a model request.
 */
import { defineCommand } from "../shared/command.ts";
import { formatJson, formatReport, runDoctor } from "./index.ts";
import { resolveWorkdir } from "../shared/resolve-workdir.ts";
import { homeDir } from "../shared/home-dir.ts";
import { stdoutForPeople } from "../shared/for-people.ts";

const args = {
  json: { type: "boolean", description: "Print one JSON object: { healthy, problems, warnings, checked }" },
  workdir: {
    type: "string",
    alias: "C",
    description: "Workspace whose AGENTS.md to check (default: the current directory)",
  },
  config: { type: "string", description: "Configuration file (default: RIENDA_CONFIG, else ~/.rienda/config.yaml)" },
} as const;

export default defineCommand({
  meta: {
    name: "doctor",
    description: "Check the config, agents, tools and hooks; print each problem with its file and a fix.",
  },
  args,
  async run(line) {
    const parsed = line.values;
    const workdir = resolveWorkdir(parsed.workdir);
    const report = await runDoctor({
      home: homeDir(),
      env: process.env,
      workdir,
      ...(parsed.config ? { configFlag: parsed.config } : {}),
    });
    // A problem may quote a module's own error message: on a terminal, its control characters are shown.
    if (parsed.json) process.stdout.write(formatJson(report));
    else stdoutForPeople().write(formatReport(report));
    process.exitCode = report.healthy ? 0 : 1;
  },
});
