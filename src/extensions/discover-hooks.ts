/** Discovery of the hooks in ~/.rienda/hooks: loaded, checked, diagnosed. */
import { join } from "node:path";
import type { ModuleShape, Runtime } from "../runtime/index.ts";
import { asyncProblem, promiseWarning } from "./async-functions.ts";
import { HOOK_POINT_NAMES, isHookPoint } from "./hook-points.ts";
import { diagnostic, listExtensionDirs } from "./list-extension-dirs.ts";
import { loadProblem } from "./load-problem.ts";
import type { ExtensionDiagnostic, Hook, HookCallResult, HookCatalog, HookPointName } from "./types.ts";

/** Where and what to discover. */
export interface DiscoverHooksOptions {
  /** The ~/.rienda directory. */
  riendaDir: string;
  runtime: Runtime;
  /** Load only these hooks (a run loads what its agent names); all when absent. */
  names?: readonly string[];
}

/**
 * Finds ~/.rienda/hooks/<name>/index.js and keeps the modules whose export
 * is an object of functions named after known points. Anything else (an
 * unknown point name included) is a diagnostic and the hook is skipped.
 */
export async function discoverHooks(options: DiscoverHooksOptions): Promise<HookCatalog> {
  const { runtime } = options;
  const listing = listExtensionDirs("hook", join(options.riendaDir, "hooks"));
  const diagnostics: ExtensionDiagnostic[] = [...listing.diagnostics];
  const wanted = options.names ? new Set(options.names) : undefined;
  const entries = listing.entries.filter((e) => !wanted || wanted.has(e.name));
  const hooks: Hook[] = [];
  const inspected = await runtime.inspectAll(entries.map((e) => e.file));
  for (const [i, entry] of entries.entries()) {
    const outcome = inspected[i]!;
    if (outcome.kind === "interrupted") continue;
    if (outcome.kind === "load-failed") {
      diagnostics.push(diagnostic("hook", entry.name, entry.file, loadProblem(entry.file, outcome.message)));
      continue;
    }
    const points = checkHookShape(outcome.shape);
    if (typeof points === "string") {
      diagnostics.push(diagnostic("hook", entry.name, entry.file, points));
      continue;
    }
    for (const point of points) {
      const member = outcome.shape.members[point];
      if (member?.async)
        diagnostics.push({
          ...diagnostic("hook", entry.name, entry.file, asyncProblem("hook", point)),
          warning: true,
          failsEveryCall: true,
        });
      else if (member?.usesPromises)
        diagnostics.push({ ...diagnostic("hook", entry.name, entry.file, promiseWarning(point)), warning: true });
    }
    hooks.push(userHook(runtime, entry.name, entry.file, points));
  }
  return { hooks, available: listing.entries.map((e) => e.name), diagnostics };
}

function userHook(runtime: Runtime, name: string, file: string, points: HookPointName[]): Hook {
  return {
    name,
    source: file,
    points,
    async call(point, args, context): Promise<HookCallResult> {
      const outcome = await runtime.invoke({ modulePath: file, exportName: point, args, context });
      switch (outcome.kind) {
        case "returned":
          if (outcome.type === "a Promise") {
            return { kind: "failed", message: `${point} returned a Promise; handlers must be synchronous` };
          }
          // A function or a symbol cannot leave the hook's context; it must not pass for "no opinion" unreported.
          if (outcome.value === undefined && outcome.type !== "undefined") {
            return {
              kind: "failed",
              message: `${point} returned ${outcome.type}; an answer is an object (or undefined or null for no opinion)`,
            };
          }
          return { kind: "returned", value: outcome.value, type: outcome.type };
        case "threw":
          return { kind: "failed", message: outcome.message };
        case "load-failed":
          return { kind: "failed", message: `failed to load: ${outcome.message}` };
        case "interrupted":
          return { kind: "interrupted" };
      }
    },
  };
}

function checkHookShape(shape: ModuleShape): HookPointName[] | string {
  if (shape.type !== "an object") {
    return `module.exports must be an object of functions named after hook points (it is ${shape.type})`;
  }
  const problems: string[] = [];
  for (const [key, member] of Object.entries(shape.members)) {
    if (!isHookPoint(key)) problems.push(`unknown point "${key}" (points: ${HOOK_POINT_NAMES.join(", ")})`);
    else if (member.type !== "a function") problems.push(`"${key}" must be a function (it is ${member.type})`);
  }
  if (problems.length > 0) return problems.join("; ");
  return HOOK_POINT_NAMES.filter((p) => p in shape.members);
}
