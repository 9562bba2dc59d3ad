/**
 * The sandbox of the `shell` tool's commands (issue 43, docs/security.md
 * "The sandbox"): the setting as agent files and config.yaml write it, the
 * policy of a run, and the command line that runs one command inside it
 * (bubblewrap on Linux, sandbox-exec on macOS).
 *
 * Invariants: a run that asked for a sandbox either gets it or fails before
 * its first request (openSandbox); nothing here runs a command itself.
 * Must not know about tools, the engine or the command line.
 */
export { bwrapArgs, type PathFacts } from "./bwrap-args.ts";
export { denialNote } from "./denial-note.ts";
export { findProgram, openSandbox, type SandboxHost } from "./open-sandbox.ts";
export { parseSandboxMode, readSandboxSettings, settingPath, type SettingProblem } from "./read-settings.ts";
export { absolutePath, DEFAULT_HIDDEN, resolveSandboxPolicy } from "./resolve-policy.ts";
export { seatbeltProfile } from "./seatbelt-profile.ts";
export {
  SANDBOX_MODES,
  type CommandSandbox,
  type SandboxMode,
  type SandboxPolicy,
  type SandboxSettings,
} from "./types.ts";
