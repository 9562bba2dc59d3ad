/**
 * The platforms a release is built for: our name for each (it appears in
 * archive names and in `rienda version`), Bun's `--target`, and the
 * executable's file name there.
 */

export interface Target {
  /** `<os>-<arch>`, as in rienda-<version>-<os>-<arch>.tar.gz. */
  name: string;
  /** What `bun build --compile --target=` takes for it. */
  bunTarget: string;
  /** The executable's file name inside the archive. */
  executable: string;
  /** `tar.gz`, or `zip` for Windows, where it is what people can open. */
  archive: "tar.gz" | "zip";
}

function target(name: string, bunTarget: string): Target {
  const windows = name.startsWith("windows-");
  return { name, bunTarget, executable: windows ? "rienda.exe" : "rienda", archive: windows ? "zip" : "tar.gz" };
}

export const TARGETS: readonly Target[] = [
  target("linux-x64", "bun-linux-x64"),
  // For x86-64 CPUs without AVX2 (before Haswell, some virtual machines).
  target("linux-x64-baseline", "bun-linux-x64-baseline"),
  target("linux-arm64", "bun-linux-arm64"),
  target("darwin-x64", "bun-darwin-x64"),
  target("darwin-arm64", "bun-darwin-arm64"),
  target("windows-x64", "bun-windows-x64"),
];

/** The target of the machine running this, for `make build` (which uses the installed Bun as is). */
export function hostTargetName(): string {
  const os = process.platform === "win32" ? "windows" : process.platform;
  return `${os}-${process.arch}`;
}

/** The targets named on the command line (comma-separated), or every one. */
export function selectTargets(names: string | undefined): Target[] {
  if (names === undefined || names === "" || names === "all") return [...TARGETS];
  return names.split(",").map((name) => {
    const found = TARGETS.find((t) => t.name === name.trim());
    if (!found) throw new Error(`unknown target "${name}" (known: ${TARGETS.map((t) => t.name).join(", ")})`);
    return found;
  });
}
