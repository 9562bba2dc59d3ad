/** The error a broken configuration file raises: every problem found, each naming the file and key. */
import { RiendaError } from "../errors.ts";

/** One thing wrong with the file. `path` is a formatted key path, or "" for the file as a whole. */
export interface ConfigProblem {
  file: string;
  path: string;
  message: string;
  /** Line of the key in the file, when known (problems are listed in file order). */
  line?: number;
}

/** `<file>: <key path>: <problem>`, the one-line form of a problem. */
function formatProblem(problem: ConfigProblem): string {
  return problem.path === ""
    ? `${problem.file}: ${problem.message}`
    : `${problem.file}: ${problem.path}: ${problem.message}`;
}

/** A RiendaError (code "config") carrying every problem; its message has one line per problem. */
export class ConfigError extends RiendaError {
  readonly problems: readonly ConfigProblem[];

  constructor(problems: readonly ConfigProblem[], options?: { cause?: unknown }) {
    super("config", problems.map(formatProblem).join("\n"), options);
    this.name = "ConfigError";
    this.problems = problems;
  }
}
