/** Rienda's version and what its build recorded about itself. */
import pkg from "../package.json" with { type: "json" };

/** Rienda's version, taken from package.json at build time. */
export const VERSION: string = pkg.version;

/** What the build recorded about itself (scripts/release/compile.ts). */
export interface BuildInfo {
  /** Full commit id, or null when built outside a git checkout. */
  commit: string | null;
  /** True when tracked files differed from the commit. */
  dirty: boolean;
  /** The commit's date (ISO 8601, UTC), or null when unknown. */
  date: string | null;
  /** The Bun version that compiled the executable, which is also the runtime it carries. */
  bun: string;
  /** The platform it was built for: linux-x64, linux-x64-baseline, darwin-arm64, ... */
  target: string;
}

// Replaced by the build (bun build --define); absent when run from source.
declare const RIENDA_BUILD: BuildInfo | undefined;

/** The embedded build record, or undefined when running from source. */
export const BUILD: BuildInfo | undefined = typeof RIENDA_BUILD === "undefined" ? undefined : RIENDA_BUILD;
