/**
 * The `sandbox:` and `permissions:` blocks (new, issue 43): where the
 * `shell` tool's commands run and the rules on tool calls, read by the
 * checks agent files use too (sandbox/, permissions/), each problem at its
 * key path.
 */
import { readPermissionRules, type PermissionRule } from "../permissions/index.ts";
import { readSandboxSettings, type SandboxSettings } from "../sandbox/index.ts";
import type { ConfigReader } from "./config-reader.ts";

/** Both blocks of the document, with the defaults when absent (no sandbox setting, no rules). */
export function readSafety(
  reader: ConfigReader,
  document: Record<string, unknown>,
): { sandbox: SandboxSettings; permissions: PermissionRule[] } {
  const sandbox = readSandboxSettings(document.sandbox);
  for (const problem of sandbox.problems) reader.problem(["sandbox", ...problem.path], problem.message);
  const permissions = readPermissionRules(document.permissions, reader.file);
  for (const problem of permissions.problems) reader.problem(["permissions", ...problem.path], problem.message);
  return { sandbox: sandbox.settings, permissions: permissions.rules };
}
