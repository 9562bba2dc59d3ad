/**
 * Remakes src/models-dev/snapshot.generated.ts from the npm package pinned
 * in scripts/models-dev/source.json (name, exact version, sha512
 * integrity): downloads it with `npm pack` (the registry is the only
 * network needed, and only here: builds use the committed file), checks
 * the tarball against the pinned integrity, reads the catalogue out of the
 * executable it holds and writes the trimmed snapshot
 * (src/models-dev/models-dev-snapshot.bin and snapshot.generated.ts).
 *
 *   bun scripts/models-dev/make-snapshot.ts            the pinned version
 *   bun scripts/models-dev/make-snapshot.ts --update   pin the package's latest version first
 *   bun scripts/models-dev/make-snapshot.ts --update 1.19.5
 *
 * The same pin gives the same data (the brotli bytes may differ between
 * zlib versions; test/models-dev/snapshot.test.ts compares decoded data).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { extractCatalogue } from "./extract-catalogue.ts";
import { catalogueDate, snapshotFiles, trimCatalogue } from "./snapshot-file.ts";

export const SOURCE_PATH = resolve(import.meta.dir, "source.json");
export const GENERATED_PATH = resolve(import.meta.dir, "../../src/models-dev/snapshot.generated.ts");
export const DATA_PATH = resolve(import.meta.dir, "../../src/models-dev/models-dev-snapshot.bin");
/** Where the catalogue sits inside the package. */
const EXECUTABLE = "package/bin/opencode";

/** The pinned package (scripts/models-dev/source.json). */
export interface SnapshotSource {
  package: string;
  version: string;
  integrity: string;
}

function run(command: string, args: string[], cwd?: string): string {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(" ")} failed (exit ${result.status}): ${result.stderr.trim()}`);
  return result.stdout;
}

/** The pin for `version` (or the latest) of the pinned package, as the registry gives it. */
function pinFromRegistry(current: SnapshotSource, version = "latest"): SnapshotSource {
  const answer = JSON.parse(
    run("npm", ["view", `${current.package}@${version}`, "version", "dist.integrity", "--json"]),
  ) as Record<string, string>;
  const resolved = answer.version;
  const integrity = answer["dist.integrity"];
  if (!resolved || !integrity) throw new Error(`npm view ${current.package}@${version} gave no version or integrity`);
  return { package: current.package, version: resolved, integrity };
}

/** The pinned package's executable, downloaded and checked against the pin. */
function downloadExecutable(source: SnapshotSource, work: string): Buffer {
  const packed = JSON.parse(
    run("npm", [
      "pack",
      `${source.package}@${source.version}`,
      "--pack-destination",
      work,
      "--json",
      "--loglevel=error",
    ]),
  ) as Array<{ filename: string }>;
  const tarball = join(work, packed[0]!.filename);
  const integrity = `sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}`;
  if (integrity !== source.integrity)
    throw new Error(
      `${source.package}@${source.version}: the tarball's integrity is ${integrity}, the pin says ${source.integrity}`,
    );
  run("tar", ["-xzf", tarball, "-C", work, EXECUTABLE]);
  return readFileSync(join(work, EXECUTABLE));
}

function main(argv: string[]): void {
  let source = JSON.parse(readFileSync(SOURCE_PATH, "utf8")) as SnapshotSource;
  const update = argv.indexOf("--update");
  if (update !== -1) {
    source = pinFromRegistry(source, argv[update + 1]);
    writeFileSync(SOURCE_PATH, `${JSON.stringify(source, null, 2)}\n`);
  }
  const work = mkdtempSync(join(tmpdir(), "rienda-models-dev-"));
  try {
    const catalogue = extractCatalogue(downloadExecutable(source, work));
    const trimmed = trimCatalogue(catalogue);
    const files = snapshotFiles(trimmed, {
      date: catalogueDate(catalogue),
      source: `${source.package}@${source.version}`,
    });
    writeFileSync(DATA_PATH, files.data);
    writeFileSync(GENERATED_PATH, files.module);
    const models = Object.values(trimmed).reduce(
      (sum, provider) => sum + Object.keys(provider.models as object).length,
      0,
    );
    console.log(
      `${DATA_PATH}: ${Object.keys(trimmed).length} providers, ${models} models, ${files.data.length} bytes; catalogue of ${catalogueDate(catalogue)}`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) main(process.argv.slice(2));
