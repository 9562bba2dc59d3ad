/** Discovery of the tools: the built-in ones and those in ~/.rienda/tools, loaded, checked, diagnosed. */
import { join } from "node:path";
import type { ModuleShape, Runtime } from "../runtime/index.ts";
import type { CommandSandbox } from "../sandbox/index.ts";
import { createShellTool, type Tool, type ToolRunner } from "../tools/index.ts";
import { asyncProblem, promiseWarning } from "./async-functions.ts";
import { diagnostic, listExtensionDirs } from "./list-extension-dirs.ts";
import { loadProblem } from "./load-problem.ts";
import type { ExtensionDiagnostic, ToolCatalog } from "./types.ts";
import { userTool } from "./user-tool.ts";

/** Where and what to discover. */
export interface DiscoverToolsOptions {
  /** The ~/.rienda directory. */
  riendaDir: string;
  runtime: Runtime;
  /** Checks `parameters` schemas (without compiling them). */
  runner: Pick<ToolRunner, "schemaProblem">;
  /** Load only these user tools (a run loads what its agent names); all when absent. */
  names?: readonly string[];
  /** The variables the `shell` tool's commands do not inherit (config.yaml's providers' keys, `shell:`); none when absent. */
  shellHiddenEnv?: (name: string) => boolean;
  /** Where the `shell` tool's commands run (docs/security.md, "The sandbox"); none: unsandboxed. */
  shellSandbox?: CommandSandbox;
}

/** The built-in tools, wired to the runtime so an interrupt reaches their processes. */
function builtInTools(runtime: Runtime, shellHiddenEnv?: (name: string) => boolean, sandbox?: CommandSandbox): Tool[] {
  return [createShellTool((request) => runtime.exec(request), shellHiddenEnv, sandbox)];
}

/**
 * Finds ~/.rienda/tools/<name>/index.js, loads each asked-for module in a
 * fresh context, validates its exports and merges the good ones with the
 * built-ins. One broken tool is a diagnostic, never a failure of the others.
 */
export async function discoverTools(options: DiscoverToolsOptions): Promise<ToolCatalog> {
  const { runtime, runner } = options;
  const listing = listExtensionDirs("tool", join(options.riendaDir, "tools"));
  const diagnostics: ExtensionDiagnostic[] = [...listing.diagnostics];
  const wanted = options.names ? new Set(options.names) : undefined;
  const entries = listing.entries.filter((e) => !wanted || wanted.has(e.name));
  const builtIns = builtInTools(runtime, options.shellHiddenEnv, options.shellSandbox);
  const byName = new Map(builtIns.map((t) => [t.name, t]));

  const inspected = await runtime.inspectAll(entries.map((e) => e.file));
  for (const [i, entry] of entries.entries()) {
    const outcome = inspected[i]!;
    if (outcome.kind === "interrupted") continue;
    if (outcome.kind === "load-failed") {
      diagnostics.push(diagnostic("tool", entry.name, entry.file, loadProblem(entry.file, outcome.message)));
      continue;
    }
    const checked = await checkToolShape(outcome.shape, runner);
    if (typeof checked === "string") {
      diagnostics.push(diagnostic("tool", entry.name, entry.file, checked));
      continue;
    }
    if (byName.get(entry.name)?.builtIn)
      diagnostics.push({
        ...diagnostic("tool", entry.name, entry.file, "replaces a built-in tool"),
        message: `tool "${entry.name}" replaces a built-in tool`,
        warning: true,
      });
    const execute = outcome.shape.members.execute;
    if (execute?.async)
      diagnostics.push({
        ...diagnostic("tool", entry.name, entry.file, asyncProblem("tool", "execute")),
        warning: true,
        failsEveryCall: true,
      });
    else if (execute?.usesPromises)
      diagnostics.push({ ...diagnostic("tool", entry.name, entry.file, promiseWarning("execute")), warning: true });
    byName.set(entry.name, userTool(runtime, { name: entry.name, file: entry.file, ...checked }));
  }

  const available = [...new Set([...builtIns.map((t) => t.name), ...listing.entries.map((e) => e.name)])].sort();
  const tools = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { tools, available, diagnostics };
}

/** The description and parameters of a valid tool module, or what is wrong with it. */
async function checkToolShape(
  shape: ModuleShape,
  runner: Pick<ToolRunner, "schemaProblem">,
): Promise<{ description: string; parameters: Record<string, unknown> } | string> {
  if (shape.type !== "an object" && shape.type !== "a function") {
    return `module.exports must be an object with description, parameters and execute (it is ${shape.type})`;
  }
  const problems: string[] = [];
  const { description, parameters, execute } = shape.members;
  const text = description?.type === "a string" ? String(description.value) : "";
  if (text.trim() === "")
    problems.push(
      description ? '"description" must be a non-empty string' : 'missing "description" (a non-empty string)',
    );
  let schema: Record<string, unknown> | undefined;
  if (parameters?.type === "an object" && parameters.value !== null && typeof parameters.value === "object") {
    schema = parameters.value as Record<string, unknown>;
    const problem = await runner.schemaProblem(schema);
    if (problem !== undefined) problems.push(`"parameters" is not a valid JSON Schema: ${problem}`);
  } else {
    problems.push(
      parameters
        ? `"parameters" must be a JSON Schema object (it is ${parameters.type})`
        : 'missing "parameters" (a JSON Schema object)',
    );
  }
  if (execute?.type !== "a function")
    problems.push(execute ? `"execute" must be a function (it is ${execute.type})` : 'missing "execute" (a function)');
  if (problems.length > 0 || !schema) return problems.join("; ");
  return { description: text, parameters: schema };
}
