/** The sandbox setting, as written and as resolved for one run (docs/security.md, "The sandbox"). */

/** What the model's commands may write. */
export type SandboxMode = "off" | "read-only" | "workspace-write";

/** The modes, as written. */
export const SANDBOX_MODES: readonly SandboxMode[] = ["off", "read-only", "workspace-write"];

/**
 * One place's `sandbox:` (an agent's frontmatter, config.yaml, `--sandbox`):
 * only the keys it writes. Paths as written (`~/x`, `/abs`, or relative to
 * the workspace).
 */
export interface SandboxSettings {
  mode?: SandboxMode;
  /** `network: true` lets the commands reach the network; off by default. */
  network?: boolean;
  /** `git_write: true` lets `workspace-write` write the workspace's `.git`; read-only by default. */
  gitWrite?: boolean;
  /** Paths the commands cannot read (added to the defaults; every place's list counts). */
  hide?: readonly string[];
  /** More paths the commands may write besides the workspace (`workspace-write` only). */
  writable?: readonly string[];
}

/** The sandbox of one run, every path absolute. */
export interface SandboxPolicy {
  mode: Exclude<SandboxMode, "off">;
  network: boolean;
  gitWrite: boolean;
  /** Absolute paths hidden from the commands (those that exist are masked). */
  hide: readonly string[];
  /** Absolute paths writable besides the workspace. */
  writable: readonly string[];
  /** The workspace: writable in `workspace-write`. */
  workspace: string;
  home: string;
}

/** How the shell tool runs a command in the sandbox: the program and arguments `sh -c command` runs under. */
export interface CommandSandbox {
  readonly policy: SandboxPolicy;
  /** `argv` to spawn for `sh -c command` in `cwd`, and variables to set. */
  wrap(command: string, cwd: string): { argv: string[]; env: Record<string, string>; cleanup?: () => void };
  /** A line for the model when the output shows the sandbox refused something; undefined when it does not. */
  denialNote(output: string): string | undefined;
}
