/** Spells out why a tool or hook module did not load. */
import { dirname, relative, resolve, sep } from "node:path";

/**
 * The problem of a module that did not load, as discovery reports it. A
 * failed `require` is spelled out: which package (or file) was not found,
 * by which file, and the folder the lookup started in, so whoever installs
 * a tool on a machine without the npm registry knows which node_modules to
 * bring (docs/tools.md, "Packages from npm"). Anything else is the
 * runtime's message as it is.
 */
export function loadProblem(file: string, message: string): string {
  const missing = /^Cannot find module '([^']+)'(?: \(required by (.+)\))?$/.exec(message);
  if (!missing) return `cannot load index.js: ${message}`;
  const specifier = missing[1]!;
  const requirer = missing[2] ?? file;
  const from = dirname(requirer);
  const by = shortPath(dirname(file), requirer);
  if (specifier.startsWith(".") || specifier.startsWith("/")) {
    return `cannot load index.js: require("${specifier}") in ${by}: no such file or folder: ${resolve(from, specifier)}`;
  }
  if (specifier.startsWith("node:"))
    return `cannot load index.js: require("${specifier}") in ${by}: no such built-in module`;
  const name = packageName(specifier);
  return `cannot load index.js: require("${specifier}") in ${by} found no package "${name}" in ${from}${sep}node_modules (nor in a node_modules folder above it)`;
}

/** The package a specifier names: "lodash/fp" is lodash, "@scope/pkg/x" is @scope/pkg. */
function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") && parts.length > 1 ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

/** A path inside the extension's folder relative to it; any other as it is. */
function shortPath(folder: string, path: string): string {
  const inside = relative(folder, path);
  return inside !== "" && !inside.startsWith("..") && !inside.startsWith(sep) ? inside : path;
}
