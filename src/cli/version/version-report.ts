/**
 * What `rienda version` says: the version and, for a compiled build, the
 * commit, its date, the target and the Bun version embedded at build time,
 * so a bug report can name the exact build. Kept free of the command line's
 * modules and of the other commands: `rienda --version --json` loads only this.
 */
import { bunVersion } from "../../platform.ts";
import { BUILD, VERSION } from "../../version.ts";

/** The `--json` form; null where a run from source has nothing to say. */
export interface VersionReport {
  version: string;
  commit: string | null;
  dirty: boolean;
  date: string | null;
  target: string;
  bun: string | null;
}

export function versionReport(): VersionReport {
  if (BUILD)
    return {
      version: VERSION,
      commit: BUILD.commit,
      dirty: BUILD.dirty,
      date: BUILD.date,
      target: BUILD.target,
      bun: BUILD.bun,
    };
  const os = process.platform === "win32" ? "windows" : process.platform;
  return {
    version: VERSION,
    commit: null,
    dirty: false,
    date: null,
    target: `${os}-${process.arch}`,
    bun: bunVersion() ?? null,
  };
}

/** One JSON object on one line, or aligned lines for people. */
export function formatVersion(report: VersionReport, json: boolean): string {
  if (json) return `${JSON.stringify(report)}\n`;
  const commit =
    report.commit === null
      ? "none (run from source)"
      : `${report.commit}${report.dirty ? " (with uncommitted changes)" : ""}`;
  return [
    `rienda ${report.version}`,
    `commit  ${commit}`,
    `date    ${report.date ?? "unknown"}`,
    `target  ${report.target}`,
    `bun     ${report.bun ?? "none"}`,
    "",
  ].join("\n");
}
