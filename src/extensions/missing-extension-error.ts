/** The error for a tool or hook asked for by name that is not there. */
import { RiendaError } from "../errors.ts";
import { didYouMean } from "../values.ts";
import type { ExtensionDiagnostic, ExtensionKind } from "./types.ts";

/** What discovery knows about the names of one kind of extension. */
export interface ExtensionNames {
  diagnostics: readonly ExtensionDiagnostic[];
  /** Every name installed or built in, loaded or not. */
  available: readonly string[];
}

/**
 * Why a tool or hook asked for by name is not there: its own load problem
 * (with the file at fault) when it is installed but broken, else the names
 * that could be asked for instead.
 */
export function missingExtensionError(
  kind: ExtensionKind,
  name: string,
  catalog: ExtensionNames,
  aside?: string,
): RiendaError {
  const broken = brokenExtension(kind, name, catalog);
  if (broken) return new RiendaError("extension", `${broken.message} (${broken.file})`);
  return new RiendaError("extension", unknownExtensionMessage(kind, name, catalog, aside));
}

/** The load problem of the installed extension `name`, if it is installed and does not load. */
export function brokenExtension(
  kind: ExtensionKind,
  name: string,
  catalog: ExtensionNames,
): ExtensionDiagnostic | undefined {
  return catalog.diagnostics.find((d) => d.kind === kind && d.name === name && !d.warning);
}

/**
 * `unknown tool "wrod-count" (available: shell, word-count); did you mean
 * "word-count"?; not loading: half`: first the form of contract §3
 * (`unknown tool "ghost" (available: shell, word-count)`, kept whole so it
 * stays a literal part of every message), then the closest name, what is
 * installed but broken (naming one of those would only trade this error for
 * its load error), and `aside` (what else the name could have meant).
 */
export function unknownExtensionMessage(
  kind: ExtensionKind,
  name: string,
  catalog: ExtensionNames,
  aside?: string,
): string {
  const broken = new Set(catalog.available.filter((n) => brokenExtension(kind, n, catalog)));
  const working = catalog.available.filter((n) => !broken.has(n));
  const list = working.length > 0 ? working.join(", ") : broken.size > 0 ? "none" : "none installed";
  const near = didYouMean(name, catalog.available).trim();
  const after = [near, broken.size > 0 ? `not loading: ${[...broken].join(", ")}` : "", aside ?? ""].filter(
    (part) => part !== "",
  );
  return `unknown ${kind} "${name}" (available: ${list})${after.map((part) => `; ${part}`).join("")}`;
}
