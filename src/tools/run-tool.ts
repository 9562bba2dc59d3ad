/** The one path every tool call takes: validate arguments, run, cap the text. */
import { createArgumentValidator, type ArgumentValidator } from "./argument-validator.ts";
import { capText } from "./cap-text.ts";
import type { Tool, ToolCallContext, ToolResult } from "./types.ts";
import { jsonDepthProblem } from "../values.ts";

/** Runs tools the one way every tool is run. */
export interface ToolRunner {
  /**
   * Validates the arguments, runs the tool and caps the text. `args` are the
   * decoded arguments, exactly as hooks saw them; a string (text the model
   * sent that was not a JSON object) is refused, never decoded here. Never
   * throws: every failure is an error result.
   */
  runTool(tool: Tool, args: unknown, context: ToolCallContext): Promise<ToolResult>;
  /** Why `parameters` is not an acceptable JSON Schema, or undefined (for discovery; compiles nothing). */
  schemaProblem(parameters: unknown): Promise<string | undefined>;
  /** Loads the argument validator in the background (call while waiting for something else). */
  prepare(): void;
}

/** Creates a runner with its own schema cache. */
export function createToolRunner(validator: ArgumentValidator = createArgumentValidator()): ToolRunner {
  return {
    async runTool(tool, args, context) {
      const decoded = decodeArguments(args);
      if (!decoded.ok) return { text: `invalid arguments for tool "${tool.name}": ${decoded.problem}`, isError: true };
      const problems = await validator.check(tool.argumentSchema ?? tool.parameters, decoded.args);
      if (problems.length > 0) {
        return {
          text: `invalid arguments for tool "${tool.name}":\n${problems.map((p) => `- ${p}`).join("\n")}`,
          isError: true,
        };
      }
      if (context.signal.aborted) return { text: "the tool was interrupted", isError: true };
      let result: ToolResult;
      try {
        result = await tool.execute(decoded.args, context);
      } catch (error) {
        result = { text: error instanceof Error ? error.message : String(error), isError: true };
      }
      return { text: capText(result.text), isError: result.isError };
    },
    schemaProblem: (parameters) => validator.schemaProblem(parameters),
    prepare: () => validator.prepare(),
  };
}

type Decoded = { ok: true; args: Record<string, unknown> } | { ok: false; problem: string };

/**
 * The arguments as an object, or why they are not one. A string is what the
 * model sent when it was not JSON, or JSON text encoded as a JSON string
 * (arguments encoded twice). Decoding it here would run the tool with
 * arguments no beforeToolExecute hook has seen (a guard reads the string,
 * finds no `command`, allows it), so it is refused and the model told why.
 */
function decodeArguments(args: unknown): Decoded {
  if (typeof args === "string") {
    const tooDeep = jsonDepthProblem(args);
    if (tooDeep) return { ok: false, problem: tooDeep };
    try {
      JSON.parse(args);
    } catch (error) {
      return { ok: false, problem: `not valid JSON (${error instanceof Error ? error.message : String(error)})` };
    }
    return {
      ok: false,
      problem:
        "expected a JSON object, got a string holding JSON (the arguments were encoded twice; send the object itself)",
    };
  }
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    return { ok: false, problem: `expected a JSON object, got ${kindOf(args)}` };
  }
  return { ok: true, args: args as Record<string, unknown> };
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}
