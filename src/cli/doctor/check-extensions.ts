/**
 * Findings from tool and hook discovery: a module that does not load or
 * exports the wrong shape is a problem, and so is one that loads with an
 * `async` function (every call of it fails); a user tool taking a
 * built-in's name is a warning (it works, but the built-in is gone).
 */
import { dirname } from "node:path";
import { HOOK_POINT_NAMES, type ExtensionDiagnostic } from "../../extensions/index.ts";
import type { Finding } from "./types.ts";

const REPLACES_BUILT_IN = "replaces a built-in tool";

/** One finding per diagnostic, in discovery order. */
export function checkExtensions(diagnostics: readonly ExtensionDiagnostic[]): Finding[] {
  return diagnostics.map((d) => {
    if (d.failsEveryCall) {
      return {
        severity: "problem",
        check: d.kind,
        file: d.file,
        name: d.name,
        message: `${d.kind} "${d.name}": ${d.problem}`,
        hint: extensionHint(d.kind, d.problem, dirname(d.file)),
      };
    }
    if (d.warning && d.problem !== REPLACES_BUILT_IN) {
      return {
        severity: "warning",
        check: d.kind,
        file: d.file,
        name: d.name,
        message: `${d.kind} "${d.name}": ${d.problem}`,
        hint: "compute the result synchronously and return it; use ctx.http.fetch and ctx.system.exec instead of fetch or child_process callbacks (docs/tools.md)",
      };
    }
    if (d.problem === REPLACES_BUILT_IN) {
      return {
        severity: "warning",
        check: d.kind,
        file: d.file,
        name: d.name,
        message: `${d.kind} "${d.name}" replaces a built-in tool`,
        hint: `nothing to do if that is what you want; otherwise rename the directory of ${d.file} to keep the built-in`,
      };
    }
    return {
      severity: "problem",
      check: d.kind,
      file: d.file,
      name: d.name,
      message: `${d.kind} "${d.name}": ${d.problem}`,
      hint: [...new Set(splitProblems(d.problem).map((p) => extensionHint(d.kind, p, dirname(d.file))))].join("; "),
    };
  });
}

/** Discovery joins several shape problems with "; "; a load error is kept whole (its text may contain "; "). */
function splitProblems(problem: string): string[] {
  return problem.startsWith("cannot load") ? [problem] : problem.split("; ");
}

/** A fix for one problem of a tool or hook module (`folder`: the extension's own). */
export function extensionHint(kind: "tool" | "hook", problem: string, folder = `the ${kind}'s folder`): string {
  const missingPackage = /^cannot load index\.js: require\("[^"]*"\) in (.+) found no package "([^"]+)" in /.exec(
    problem,
  );
  if (missingPackage) {
    const [, by, name] = missingPackage;
    // A package that needs another one: the folder's node_modules is incomplete.
    const run = by!.startsWith("node_modules")
      ? `"npm install" in ${folder} (${folder}/node_modules is incomplete)`
      : `"npm install ${name}" in ${folder}`;
    return `where the npm registry is reachable, run ${run}; for a machine without one, do that elsewhere and copy the folder, node_modules included (docs/tools.md, "Packages from npm")`;
  }
  if (problem.startsWith("cannot load")) {
    const again = kind === "tool" ? "; rienda tool list shows the error again" : "";
    return `fix the error so the module loads (a syntax error, a failing require, or a throw at the top level)${again}`;
  }
  if (problem.startsWith("invalid name")) return 'rename the directory: 1 to 64 letters, digits, "_" or "-"';
  if (problem.includes("is an async function")) {
    const member = /^"([^"]*)"/.exec(problem)?.[1] ?? "execute";
    return `remove "async" from ${member} and every "await" in it: ctx calls return their answers directly (docs/tools.md)`;
  }
  if (kind === "hook") {
    const point = /^unknown point "([^"]*)"/.exec(problem);
    if (point) return `rename "${point[1]}" to one of ${HOOK_POINT_NAMES.join(", ")}, or remove it`;
    const member = /^"([^"]*)" must be a function/.exec(problem);
    if (member) return `make "${member[1]}" a function: ${member[1]}(ctx, ...) { ... }`;
    return "set module.exports = { beforeToolExecute(ctx, call) { ... } }: an object of handlers named after hook points (docs/hooks.md)";
  }
  if (problem.startsWith("module.exports"))
    return "set module.exports = { description, parameters, execute(ctx, args) { ... } } (docs/tools.md)";
  if (problem.includes('"description"'))
    return 'add description: "what the tool does, for the model" to module.exports';
  if (problem.includes("not a valid JSON Schema")) return "fix the JSON Schema in parameters (the message says where)";
  if (problem.includes('"parameters"'))
    return 'add parameters: { type: "object", properties: { ... } } to module.exports';
  if (problem.includes('"execute"')) return 'add execute to module.exports: execute(ctx, args) { return "..."; }';
  return "see docs/tools.md for what a tool module exports";
}
