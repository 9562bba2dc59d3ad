import { RiendaError } from "../errors.ts";
import type { ExtensionDiagnostic } from "./types.ts";

/**
 * Why a tool or hook asked for by name is not there: its own load problem
 * (with the file at fault) when it is installed but broken, else the names
 * that could be asked for instead.
 */
export function missingExtensionError(
  kind: "tool" | "hook",
  name: string,
  catalog: { diagnostics: readonly ExtensionDiagnostic[]; available: readonly string[] },
): RiendaError {
  const broken = catalog.diagnostics.find((d) => d.kind === kind && d.name === name && d.problem !== "replaces a built-in tool");
  if (broken) return new RiendaError("extension", `${broken.message} (${broken.file})`);
  const list = catalog.available.length > 0 ? catalog.available.join(", ") : "none installed";
  return new RiendaError("extension", `unknown ${kind} "${name}" (available: ${list})`);
}
