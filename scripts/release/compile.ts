/**
 * Compiles src/ into one executable, for this machine (`make build`) or for
 * a release target, with what the build records about itself embedded as
 * the constant RIENDA_BUILD (src/version.ts reads it).
 *
 *   bun scripts/release/compile.ts --outfile dist/rienda [--target linux-arm64]
 *
 * A cross-compile's runtime comes from Bun's own download of the target's
 * executable (the npm packages @oven/bun-<os>-<arch>), kept in
 * ~/.bun/install/cache, so only the first build of a target needs the
 * registry.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { readBuildInfo, ROOT, type BuildInfo } from "./build-info.ts";
import { hostTargetName, selectTargets, type Target } from "./targets.ts";

/**
 * --splitting: each lazily imported command (and what only it uses, node:
 * built-ins included) is its own embedded chunk, loaded when that command
 * runs; one bundle would load all of them on every start (measured: rienda
 * --version 21 ms -> 14 ms).
 * --no-compile-autoload-dotenv/-bunfig: a compiled Bun program would
 * otherwise read a .env and a bunfig.toml (whose `preload` runs code) from
 * whatever directory it is started in.
 */
export const BUILD_FLAGS = [
  "--compile",
  "--splitting",
  "--minify",
  "--bytecode",
  "--format=esm",
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-bunfig",
  "--compile-autoload-package-json",
  // Embedded data files keep their names, so code finds them with `new URL("./name", import.meta.url)`.
  "--asset-naming=[name].[ext]",
];

/**
 * Worker entry files are extra entry points: the binary embeds them and
 * `new URL("./x.ts", import.meta.url)` finds them at run time. So is the
 * models.dev snapshot's data (src/models-dev/snapshot.ts reads it on first
 * use; loading nothing of it at start-up).
 */
export function entryPoints(): string[] {
  const runtime = join(ROOT, "src/runtime/context");
  const workers = readdirSync(runtime)
    .filter((name) => name.endsWith("-worker.ts"))
    .sort()
    .map((name) => join(runtime, name));
  return [join(ROOT, "src/main.ts"), ...workers, join(ROOT, "src/models-dev/models-dev-snapshot.bin")];
}

/** What `rienda version --json` reports about the build, beside the version. */
export interface EmbeddedBuild extends BuildInfo {
  target: string;
}

/**
 * Compiles to `outfile`. Bun embeds the outfile's base name in the
 * executable, so every build names it `rienda` (or `rienda.exe`) and only
 * the directory differs: that keeps builds of one commit identical.
 */
export function compile(target: Target | undefined, outfile: string, info: BuildInfo = readBuildInfo()): string {
  const embedded: EmbeddedBuild = { ...info, target: target?.name ?? hostTargetName() };
  const args = [
    "build",
    ...BUILD_FLAGS,
    ...(target ? [`--target=${target.bunTarget}`] : []),
    `--define=RIENDA_BUILD=${JSON.stringify(embedded)}`,
    ...entryPoints(),
    "--outfile",
    outfile,
  ];
  const result = spawnSync(process.execPath, args, { cwd: ROOT, encoding: "utf8" });
  if (result.status !== 0) {
    const output = `${result.stdout}${result.stderr}`.trim();
    throw new Error(`bun build for ${embedded.target} failed (exit ${result.status}):\n${output}`);
  }
  return result.stdout;
}

if (import.meta.main) {
  const value = (flag: string) => {
    const at = process.argv.indexOf(flag);
    return at < 0 ? undefined : process.argv[at + 1];
  };
  const outfile = value("--outfile");
  const name = value("--target");
  if (!outfile) {
    process.stderr.write("usage: bun scripts/release/compile.ts --outfile PATH [--target NAME]\n");
    process.exit(2);
  }
  const target = name === undefined ? undefined : selectTargets(name)[0];
  if (target && basename(outfile) !== target.executable) {
    process.stderr.write(`compile: name the output ${target.executable} (Bun embeds the file name)\n`);
    process.exit(2);
  }
  try {
    process.stdout.write(compile(target, outfile));
  } catch (error) {
    process.stderr.write(`compile: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
