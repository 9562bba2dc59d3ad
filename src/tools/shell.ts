import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { ProcessRequest, ProcessResult } from "../runtime/index.ts";
import { RESULT_CAP_BYTES } from "./cap-text.ts";
import { formatDuration } from "./format-duration.ts";
import type { Tool, ToolResult } from "./types.ts";

/** Starts one shell command (the runtime's, so an interrupt reaches it). */
export type RunCommand = (request: ProcessRequest) => Promise<ProcessResult>;

const DEFAULT_TIMEOUT_MS = 2 * 60 * 1000;
const MAX_TIMEOUT_MS = 30 * 60 * 1000;

const PARAMETERS = {
  type: "object",
  properties: {
    command: { type: "string", description: "The command, run with sh -c. Each call starts a fresh shell: no state carries over." },
    workdir: { type: "string", description: "Directory to run in; relative paths start at the workspace. Default: the workspace." },
    timeout_ms: {
      type: "integer",
      description: `Milliseconds before the command is killed. Default ${DEFAULT_TIMEOUT_MS}; at most ${MAX_TIMEOUT_MS}.`,
    },
  },
  required: ["command"],
  additionalProperties: false,
};

/**
 * The built-in `shell` tool (contract.md §5): `sh -c` in its own process
 * group, output streamed live, a result the model reads as stdout, then
 * `stderr:` and how the command ended.
 */
export function createShellTool(run: RunCommand): Tool {
  return {
    name: "shell",
    description:
      "Runs one shell command (sh -c) in the workspace and returns its output and exit status. " +
      "Every call is a fresh process: the current directory and variables do not persist between calls.",
    parameters: PARAMETERS,
    source: "built-in",
    builtIn: true,
    async execute(args, context): Promise<ToolResult> {
      const command = typeof args.command === "string" ? args.command.trim() : "";
      if (command === "") return { text: "the command is empty", isError: true };
      const timeoutArg = typeof args.timeout_ms === "number" ? args.timeout_ms : 0;
      if (timeoutArg < 0) return { text: "timeout_ms must not be negative", isError: true };
      const timeoutMs = timeoutArg === 0 ? DEFAULT_TIMEOUT_MS : Math.min(timeoutArg, MAX_TIMEOUT_MS);
      const base = context.data.workdir;
      const cwd = typeof args.workdir === "string" && args.workdir !== "" ? resolve(base, args.workdir) : base;
      if (!existsSync(cwd) || !statSync(cwd).isDirectory()) {
        return { text: `working directory "${String(args.workdir ?? cwd)}" is not a directory`, isError: true };
      }
      let result: ProcessResult;
      try {
        result = await run({
          command,
          cwd,
          timeoutMs,
          signal: context.signal,
          maxCaptureChars: RESULT_CAP_BYTES + 1,
          onOutput: (stream, text) => context.frontEnd.output(stream, text),
        });
      } catch (error) {
        return { text: `cannot start the shell: ${error instanceof Error ? error.message : String(error)}`, isError: true };
      }
      return renderResult(result, timeoutMs);
    },
  };
}

/** What the model reads for a finished command. */
export function renderResult(result: ProcessResult, timeoutMs: number): ToolResult {
  const sections: string[] = [];
  const stdout = result.stdout.replace(/[\r\n]+$/, "");
  const stderr = result.stderr.replace(/[\r\n]+$/, "");
  if (stdout !== "") sections.push(stdout);
  if (stderr !== "") sections.push(`stderr:\n${stderr}`);
  if (result.interrupted) sections.push("command was interrupted");
  else if (result.timedOut) sections.push(`command timed out after ${formatDuration(timeoutMs)}`);
  else if (result.code > 0) sections.push(`command exited with code ${result.code}`);
  else if (result.code < 0) sections.push("command terminated by a signal");
  if (sections.length === 0) sections.push("(no output)");
  const isError = result.code !== 0 || result.timedOut || result.interrupted;
  return { text: sections.join("\n"), isError };
}
