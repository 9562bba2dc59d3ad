import { VERSION } from "./version.ts";

const argv = process.argv.slice(2);
// `--version` is answered before the command line is even loaded: scripts call it often.
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
  process.stdout.write(`${VERSION}\n`);
} else {
  const { runCli } = await import("./cli/index.ts");
  await runCli(argv);
}
