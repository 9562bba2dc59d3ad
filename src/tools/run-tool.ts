import { createArgumentValidator, type ArgumentValidator } from "./argument-validator.ts";
import { capText } from "./cap-text.ts";
import type { Tool, ToolCallContext, ToolResult } from "./types.ts";

/** Runs tools the one way every tool is run. */
export interface ToolRunner {
  /**
   * Validates the arguments, runs the tool and caps the text. `rawArguments`
   * is JSON text when it is a string, else an already decoded value. Never
   * throws: every failure is an error result.
   */
  runTool(tool: Tool, rawArguments: unknown, context: ToolCallContext): Promise<ToolResult>;
  /** Why `parameters` is not an acceptable JSON Schema, or undefined (for discovery; compiles nothing). */
  schemaProblem(parameters: unknown): Promise<string | undefined>;
  /** Loads the argument validator in the background (call while waiting for something else). */
  prepare(): void;
}

/** Creates a runner with its own schema cache. */
export function createToolRunner(validator: ArgumentValidator = createArgumentValidator()): ToolRunner {
  return {
    async runTool(tool, rawArguments, context) {
      const decoded = decodeArguments(rawArguments);
      if (!decoded.ok) return { text: `invalid arguments for tool "${tool.name}": ${decoded.problem}`, isError: true };
      const problems = await validator.check(tool.argumentSchema ?? tool.parameters, decoded.args);
      if (problems.length > 0) {
        return { text: `invalid arguments for tool "${tool.name}":\n${problems.map((p) => `- ${p}`).join("\n")}`, isError: true };
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

function decodeArguments(raw: unknown): Decoded {
  let value = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw === "" ? "{}" : raw);
    } catch (error) {
      return { ok: false, problem: `not valid JSON (${error instanceof Error ? error.message : String(error)})` };
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, problem: `expected a JSON object, got ${kindOf(value)}` };
  }
  return { ok: true, args: value as Record<string, unknown> };
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}
