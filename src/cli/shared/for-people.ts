/**
 * The process's own streams for text that may come from outside Rienda
 * (a tool's result or diagnostics, an error quoting a server or a file):
 * its control characters are shown instead of acted on by the terminal
 * (ui/terminal-text.ts). stderr is for people wherever it goes; stdout is
 * made safe only on a terminal, since piped its bytes are a script's data.
 */
import { cleanedSink, type TextSink } from "../../ui/index.ts";

/** stderr, every control character of what is written shown (`\x1b`), not acted on. */
export function stderrForPeople(): TextSink {
  return cleanedSink(process.stderr, "always");
}

/** stdout, made safe the same way when it is a terminal; exact when it is a file or a pipe. */
export function stdoutForPeople(): TextSink {
  return cleanedSink(process.stdout, "terminal");
}
