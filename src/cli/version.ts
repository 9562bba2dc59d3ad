/**
 * `rienda version [--json]`: the version and the build it comes from
 * (commit, its date, target, Bun). stdout only; exit 0.
 */
import { defineCommand } from "citty";
import { RiendaError } from "../errors.ts";
import { assertKnownFlags } from "./strict-args.ts";
import { formatVersion, versionReport } from "./version-report.ts";

const args = {
  json: { type: "boolean", description: "One JSON object: version, commit, dirty, date, target, bun." },
} as const;

export default defineCommand({
  meta: { name: "version", description: "Print the version, commit, build date, target and Bun version." },
  args,
  run({ rawArgs, args: parsed }) {
    assertKnownFlags(rawArgs, args, "rienda version");
    const extra = parsed._[0];
    if (extra !== undefined) throw new RiendaError("usage", `rienda version: unexpected argument "${extra}" (see rienda version --help)`);
    process.stdout.write(formatVersion(versionReport(), parsed.json === true));
  },
});
