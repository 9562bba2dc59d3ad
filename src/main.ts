import { watchSignals } from "./cli/interrupts.ts";
import { VERSION } from "./version.ts";

const argv = process.argv.slice(2);
// `--version` is answered before the command line is even loaded: scripts call it often.
const versionFlag = (a: string) => a === "--version" || a === "-v";
if (argv.length === 1 && versionFlag(argv[0]!)) {
  process.stdout.write(`${VERSION}\n`);
} else if (argv.length === 2 && argv.some(versionFlag) && argv.includes("--json")) {
  const { formatVersion, versionReport } = await import("./cli/version-report.ts");
  process.stdout.write(formatVersion(versionReport(), true));
} else {
  // Before the command line loads (milliseconds in which a signal would otherwise kill the process outright).
  watchSignals();
  const { runCli } = await import("./cli/index.ts");
  await runCli(argv);
}
