/**
 * The `sandbox-exec` profile of one sandboxed command (macOS Seatbelt):
 * everything allowed but writing (only the private temporary directory,
 * the workspace in `workspace-write` without its `.git`, the `writable:`
 * paths, and the terminal devices), reading the hidden paths, and the
 * network when it is off. Not run by this project's CI (no macOS runner):
 * docs/security.md says so.
 */
import type { SandboxPolicy } from "./types.ts";

/** The profile text for `sandbox-exec -p`. `tmp` is the command's private temporary directory; paths are real ones. */
export function seatbeltProfile(policy: SandboxPolicy, tmp: string, real: (path: string) => string = (p) => p): string {
  const writable = [tmp, ...(policy.mode === "workspace-write" ? [policy.workspace, ...policy.writable] : [])].map(
    real,
  );
  const lines = [
    "(version 1)",
    "(allow default)",
    "(deny file-write*)",
    `(allow file-write* ${writable.map((p) => `(subpath ${quoted(p)})`).join(" ")} (literal "/dev/null") (literal "/dev/zero") (regex #"^/dev/fd/") (regex #"^/dev/tty") (literal "/dev/dtracehelper"))`,
  ];
  if (policy.mode === "workspace-write" && !policy.gitWrite)
    lines.push(`(deny file-write* (subpath ${quoted(`${real(policy.workspace)}/.git`)}))`);
  if (policy.hide.length > 0)
    lines.push(`(deny file-read* file-write* ${policy.hide.map((p) => `(subpath ${quoted(real(p))})`).join(" ")})`);
  if (!policy.network) lines.push("(deny network*)");
  return `${lines.join("\n")}\n`;
}

/** A string of the profile language: backslash and double quote escaped. */
function quoted(text: string): string {
  return `"${text.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}
