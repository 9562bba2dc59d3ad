/**
 * `!command` at the editor: the command runs with `sh -c` in the
 * workspace, its output live in the transcript under `$ command`, and what
 * it printed goes with your next message, as context the model reads
 * before your words (docs/chat.md "Running a command"). Esc or Ctrl-C ends
 * it (its whole process group). The command is yours, typed at your
 * terminal: it runs with your environment, as your shell would run it.
 */
import { spawn } from "node:child_process";
import { ToolBlock } from "./tool-block.ts";
import type { TuiTheme } from "./theme.ts";
import type { Transcript } from "./transcript.ts";

/** The most of a command's output that goes with the next message; the end is kept. */
const CONTEXT_CHARS = 32_000;

/** Whether `text` is a `!command` (one line, something after the `!`). */
export function bangCommand(text: string): string | undefined {
  const trimmed = text.trim();
  return trimmed.startsWith("!") && !trimmed.includes("\n") && trimmed.length > 1 ? trimmed.slice(1).trim() : undefined;
}

/** Runs `command`; resolves with the context text for the next message. */
export function runBang(
  command: string,
  cwd: string,
  transcript: Transcript,
  theme: TuiTheme,
  render: () => void,
  signal: AbortSignal,
): Promise<string> {
  const block = transcript.add(new ToolBlock(theme, "shell", { command }));
  block.announce({ command });
  render();
  return new Promise((resolve) => {
    let output = "";
    const child = spawn("sh", ["-c", command], { cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    const take = (chunk: Buffer): void => {
      const text = chunk.toString("utf8");
      output += text;
      block.output(text);
      render();
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    const stop = (): void => {
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {
          // Already gone.
        }
      }
    };
    signal.addEventListener("abort", stop, { once: true });
    const finish = (ending: string, isError: boolean): void => {
      signal.removeEventListener("abort", stop);
      block.result(ending, isError);
      transcript.line(theme.style.dim("its output goes with your next message"), "  ");
      render();
      const kept =
        output.length > CONTEXT_CHARS
          ? `[… ${output.length - CONTEXT_CHARS} earlier characters left out]\n${output.slice(-CONTEXT_CHARS)}`
          : output;
      resolve(
        `I ran \`${command}\` in the workspace (${ending}); it printed:\n\`\`\`\n${kept.replace(/\n$/, "")}\n\`\`\``,
      );
    };
    child.on("error", (error) => finish(`could not start: ${error.message}`, true));
    child.on("close", (code, killed) => {
      if (signal.aborted) finish("interrupted", true);
      else if (code === 0) finish("exit 0", false);
      else finish(code === null ? `ended by ${killed}` : `exit ${code}`, true);
    });
  });
}
