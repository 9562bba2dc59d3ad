/** The built-in `shell` tool. */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { ProcessRequest, ProcessResult } from "../runtime/index.ts";
import type { CommandSandbox } from "../sandbox/index.ts";
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
    command: {
      type: "string",
      description: "The command, run with sh -c. Each call starts a fresh shell: no state carries over.",
    },
    workdir: {
      type: "string",
      description: "Directory to run in; relative paths start at the workspace. Default: the workspace.",
    },
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
 * `stderr:` and how the command ended. The variables `hiddenEnv` names are
 * left out of the command's environment (shell-env.ts). With a `sandbox`,
 * the same `sh -c` runs inside it (the same process group, timeout, output
 * and cap), and a result showing a refusal says what the sandbox allows.
 */
export function createShellTool(
  run: RunCommand,
  hiddenEnv: (name: string) => boolean = () => false,
  sandbox?: CommandSandbox,
): Tool {
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
      const wrapped = sandbox?.wrap(command, cwd);
      try {
        result = await run({
          command,
          ...(wrapped ? { argv: wrapped.argv, env: wrapped.env } : {}),
          cwd,
          // The provider keys and whatever config.yaml's shell.hide_env names (shell-env.ts).
          hideEnv: Object.keys(process.env).filter(hiddenEnv),
          timeoutMs,
          signal: context.signal,
          // Head and tail of each stream; renderResult fits them into the cap.
          maxCaptureChars: RESULT_CAP_BYTES,
          onOutput: (stream, text) => context.frontEnd.output(stream, text),
        });
      } catch (error) {
        return {
          text: `cannot start the shell: ${error instanceof Error ? error.message : String(error)}`,
          isError: true,
        };
      } finally {
        wrapped?.cleanup?.();
      }
      return renderResult(
        result,
        timeoutMs,
        RESULT_CAP_BYTES,
        sandbox?.denialNote(`${result.stdout}\n${result.stderr}`),
      );
    },
  };
}

/** Stands, on its own line, where the middle of a long stream was left out. */
export const SHELL_CUT_MARKER = "[output truncated]";

/**
 * What the model reads for a finished command: stdout, then `stderr:` and
 * stderr, then how it ended. Within the 256 KiB cap as a whole: a stream too
 * long keeps its head and its tail around a marker line, and the line that
 * says how the command ended is always there (it says why it failed), and
 * so is `note` after it (what the sandbox refused).
 */
export function renderResult(
  result: ProcessResult,
  timeoutMs: number,
  capBytes: number = RESULT_CAP_BYTES,
  note?: string,
): ToolResult {
  let status: string | undefined;
  if (result.interrupted) status = "command was interrupted";
  else if (result.timedOut) status = `command timed out after ${formatDuration(timeoutMs)}`;
  else if (result.code > 0) status = `command exited with code ${result.code}`;
  else if (result.code < 0) status = "command terminated by a signal";
  const isError = result.code !== 0 || result.timedOut || result.interrupted;

  const stdout = streamText(result.stdout, result.cut?.stdout);
  const stderr = streamText(result.stderr, result.cut?.stderr);
  const stderrLabel = "stderr:\n";
  const fixed = bytesOf([stderr.text !== "" ? stderrLabel : "", status ?? "", note ?? ""].join("")) + 3;
  const budget = Math.max(0, capBytes - fixed);
  const [outBudget, errBudget] = share(budget, bytesOf(stdout.text), bytesOf(stderr.text));

  const sections: string[] = [];
  const out = fit(stdout, outBudget);
  const err = fit(stderr, errBudget);
  if (out !== "") sections.push(out);
  if (err !== "") sections.push(stderrLabel + err);
  if (status) sections.push(status);
  if (sections.length === 0) sections.push("(no output)");
  if (note) sections.push(note);
  return { text: sections.join("\n"), isError };
}

interface Stream {
  text: string;
  /** Index where the process runner already left text out, if it did. */
  cutAt?: number;
}

function streamText(text: string, cut: { at: number } | undefined): Stream {
  const trimmed = text.replace(/[\r\n]+$/, "");
  return cut && cut.at < trimmed.length ? { text: trimmed, cutAt: cut.at } : { text: trimmed };
}

/** Splits `budget` bytes between two streams: a short one keeps all it needs, the long one the rest. */
function share(budget: number, a: number, b: number): [number, number] {
  if (a + b <= budget) return [a, b];
  const half = Math.floor(budget / 2);
  if (a <= half) return [a, budget - a];
  if (b <= half) return [budget - b, b];
  return [half, budget - half];
}

/** The stream within `budget` bytes: whole, or head + marker line + tail. */
function fit(stream: Stream, budget: number): string {
  const marker = `\n${SHELL_CUT_MARKER}\n`;
  if (stream.cutAt === undefined && bytesOf(stream.text) <= budget) return stream.text;
  const room = Math.max(0, budget - bytesOf(marker));
  let head: string;
  let tail: string;
  if (stream.cutAt !== undefined && bytesOf(stream.text) <= room) {
    head = stream.text.slice(0, stream.cutAt);
    tail = stream.text.slice(stream.cutAt);
  } else {
    const bytes = new TextEncoder().encode(stream.text);
    head = prefix(bytes, Math.ceil(room / 2));
    tail = suffix(bytes, Math.floor(room / 2));
  }
  return head + marker + tail;
}

/** The longest start of `bytes` within `n` bytes, not splitting a character. */
function prefix(bytes: Uint8Array, n: number): string {
  let end = Math.min(n, bytes.length);
  while (end > 0 && end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end--;
  // ignoreBOM: U+FEFF at the start of the kept part is output, not a marker to drop.
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes.subarray(0, end));
}

/** The longest end of `bytes` within `n` bytes, not splitting a character. */
function suffix(bytes: Uint8Array, n: number): string {
  let start = Math.max(0, bytes.length - n);
  while (start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start++;
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes.subarray(start));
}

function bytesOf(text: string): number {
  return new TextEncoder().encode(text).length;
}
