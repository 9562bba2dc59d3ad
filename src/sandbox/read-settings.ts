/**
 * `sandbox:` as written in an agent's frontmatter or config.yaml, checked
 * the same way in both: a mode alone (`sandbox: workspace-write`) or a
 * mapping of `mode`, `network`, `git_write`, `hide`, `writable`.
 */
import { describeYamlValue, isPlainObject } from "../values.ts";
import { SANDBOX_MODES, type SandboxMode, type SandboxSettings } from "./types.ts";

const KEYS = ["mode", "network", "git_write", "hide", "writable"] as const;

/** One problem: the key path under `sandbox` and what is wrong. */
export interface SettingProblem {
  path: (string | number)[];
  message: string;
}

/** The settings written, and the problems of what could not be read (each entry checked). */
export function readSandboxSettings(value: unknown): { settings: SandboxSettings; problems: SettingProblem[] } {
  const problems: SettingProblem[] = [];
  const settings: SandboxSettings = {};
  if (value === undefined || value === null) return { settings, problems };
  if (typeof value === "string") {
    const mode = readMode(value, [], problems);
    return { settings: mode ? { mode } : {}, problems };
  }
  if (!isPlainObject(value)) {
    problems.push({
      path: [],
      message: `must be a mode (${SANDBOX_MODES.join(", ")}) or a mapping of ${KEYS.join(", ")}, not ${describeYamlValue(value)}`,
    });
    return { settings, problems };
  }
  for (const key of Object.keys(value)) {
    if (!(KEYS as readonly string[]).includes(key))
      problems.push({ path: [key], message: `unknown key (known keys: ${KEYS.join(", ")})` });
  }
  const mode = value.mode === undefined || value.mode === null ? undefined : readMode(value.mode, ["mode"], problems);
  if (mode) settings.mode = mode;
  const network = readBoolean(value.network, "network", problems);
  if (network !== undefined) settings.network = network;
  const gitWrite = readBoolean(value.git_write, "git_write", problems);
  if (gitWrite !== undefined) settings.gitWrite = gitWrite;
  const hide = readPaths(value.hide, "hide", problems);
  if (hide) settings.hide = hide;
  const writable = readPaths(value.writable, "writable", problems);
  if (writable) settings.writable = writable;
  return { settings, problems };
}

/** `--sandbox MODE`: the mode, or why it is not one. */
export function parseSandboxMode(value: string): { mode: SandboxMode } | { problem: string } {
  const problems: SettingProblem[] = [];
  const mode = readMode(value, [], problems);
  return mode ? { mode } : { problem: problems[0]!.message };
}

function readMode(value: unknown, path: (string | number)[], problems: SettingProblem[]): SandboxMode | undefined {
  const written = typeof value === "string" ? value.trim() : undefined;
  if (written !== undefined && (SANDBOX_MODES as readonly string[]).includes(written)) return written as SandboxMode;
  problems.push({ path, message: `must be one of ${SANDBOX_MODES.join(", ")}, not ${describeYamlValue(value)}` });
  return undefined;
}

function readBoolean(value: unknown, key: string, problems: SettingProblem[]): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "boolean") return value;
  problems.push({ path: [key], message: `must be true or false, not ${describeYamlValue(value)}` });
  return undefined;
}

/** A list of paths: absolute, `~/...` (the home directory), or relative to the workspace. */
function readPaths(value: unknown, key: string, problems: SettingProblem[]): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    problems.push({
      path: [key],
      message: `must be a list of paths (absolute, ~/..., or relative to the workspace), not ${describeYamlValue(value)}`,
    });
    return undefined;
  }
  const paths: string[] = [];
  value.forEach((entry, i) => {
    if (typeof entry === "string" && entry.trim() !== "" && !entry.includes("\0")) paths.push(entry.trim());
    else problems.push({ path: [key, i], message: `must be a path, not ${describeYamlValue(entry)}` });
  });
  return paths;
}

/** `sandbox.hide[0]`-style text of a problem's key path. */
export function settingPath(root: string, path: readonly (string | number)[]): string {
  return path.reduce<string>((text, part) => (typeof part === "number" ? `${text}[${part}]` : `${text}.${part}`), root);
}
