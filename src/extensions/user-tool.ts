/** A user's tool module as a `Tool`, each call run by the runtime in a fresh context. */
import type { Outcome, Runtime } from "../runtime/index.ts";
import { resultFromValue, type Tool, type ToolResult } from "../tools/index.ts";

/** A tool module, loaded and validated, as a `Tool`: each execute runs in a fresh context. */
export function userTool(
  runtime: Runtime,
  entry: { name: string; file: string; description: string; parameters: Record<string, unknown> },
): Tool {
  return {
    name: entry.name,
    description: entry.description,
    parameters: entry.parameters,
    source: entry.file,
    builtIn: false,
    async execute(args, context) {
      const outcome = await runtime.invoke({ modulePath: entry.file, exportName: "execute", args: [args], context });
      return resultFromOutcome(entry.name, outcome);
    },
  };
}

/** What the model reads for each way an invocation can end. */
function resultFromOutcome(name: string, outcome: Outcome): ToolResult {
  switch (outcome.kind) {
    case "returned":
      return resultFromValue(outcome.value, outcome.type);
    case "threw":
      return { text: outcome.message, isError: true };
    case "interrupted":
      return { text: "the tool was interrupted", isError: true };
    case "load-failed":
      return { text: `tool "${name}" failed to load: ${outcome.message}`, isError: true };
  }
}
