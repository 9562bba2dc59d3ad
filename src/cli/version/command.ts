/**
 * `rienda version [--json]`: the version and the build it comes from
 * (commit, its date, target, Bun). stdout only; exit 0.
 */
import { defineCommand } from "../shared/command.ts";
import { formatVersion, versionReport } from "./version-report.ts";

const args = {
  json: { type: "boolean", description: "One JSON object: version, commit, dirty, date, target, bun." },
} as const;

export default defineCommand({
  meta: { name: "version", description: "Print the version, commit, build date, target and Bun version." },
  args,
  run(line) {
    const parsed = line.values;
    process.stdout.write(formatVersion(versionReport(), parsed.json === true));
  },
});
