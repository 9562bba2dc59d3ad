/**
 * The sandbox of one run from the places that set it, the first winning key
 * by key (`--sandbox`, the agent's frontmatter, config.yaml). `hide` lists
 * add up instead: a place can hide more, never show what another hides.
 */
import { isAbsolute, join, resolve } from "node:path";
import type { SandboxPolicy, SandboxSettings } from "./types.ts";

/**
 * Hidden in every sandbox: keys and credentials a command has no business
 * reading (and Rienda's own, which hold provider keys), and the sockets
 * that would let it act outside the sandbox (a Docker daemon runs anything).
 */
export const DEFAULT_HIDDEN: readonly string[] = [
  "~/.rienda",
  "~/.ssh",
  "~/.gnupg",
  "~/.aws",
  "~/.azure",
  "~/.config/gcloud",
  "~/.kube",
  "~/.docker",
  "~/.netrc",
  "~/.git-credentials",
  "~/.npmrc",
  "~/.pypirc",
  "/var/run/docker.sock",
  "/run/docker.sock",
];

/** The policy, or undefined when the sandbox is off (nothing set is off). */
export function resolveSandboxPolicy(
  places: readonly SandboxSettings[],
  where: { workspace: string; home: string },
): SandboxPolicy | undefined {
  const first = <K extends keyof SandboxSettings>(key: K): SandboxSettings[K] =>
    places.find((p) => p[key] !== undefined)?.[key];
  const mode = first("mode") ?? "off";
  if (mode === "off") return undefined;
  const absolute = (path: string) => absolutePath(path, where);
  const hidden = [...DEFAULT_HIDDEN, ...places.flatMap((p) => p.hide ?? [])].map(absolute);
  return {
    mode,
    network: first("network") ?? false,
    gitWrite: first("gitWrite") ?? false,
    hide: [...new Set(hidden)],
    writable: (first("writable") ?? []).map(absolute),
    workspace: resolve(where.workspace),
    home: where.home,
  };
}

/** `~/x` in the home directory, `/x` as it is, anything else in the workspace. */
export function absolutePath(path: string, where: { workspace: string; home: string }): string {
  if (path === "~") return where.home;
  if (path.startsWith("~/")) return join(where.home, path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(where.workspace, path);
}
