/**
 * `--schema FILE|JSON` (docs/pipelines.md): the JSON Schema the final
 * answer must match, read and checked before anything is sent. A value
 * that starts with `{` is the schema itself; anything else is a file,
 * relative to the directory the command was started in. An unreadable
 * file, text that is not JSON, or a schema ajv cannot use is refused
 * naming the schema's problem.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { AnswerPort } from "../../engine/index.ts";
import { RiendaError } from "../../errors.ts";
import { fitsStrictMode, structuredOutputOf, wireSchema, type ResolvedModel } from "../../providers/index.ts";
import { createArgumentValidator } from "../../tools/index.ts";
import { isRecord } from "../../values.ts";

/** A schema that passed every check, ready to be asked of any model. */
export interface AnswerSchema {
  schema: Record<string, unknown>;
  /** The port the run loop uses, for the model of the run. */
  portFor(model: ResolvedModel): AnswerPort;
}

export async function readAnswerSchema(value: string, cwd: string): Promise<AnswerSchema> {
  const inline = value.trimStart().startsWith("{");
  const shown = inline ? "--schema" : `--schema ${value}`;
  let text = value;
  if (!inline) {
    try {
      text = readFileSync(resolve(cwd, value), "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why =
        code === "ENOENT"
          ? "no such file"
          : code === "EISDIR"
            ? "is a directory"
            : code === "EACCES"
              ? "cannot be read (permission denied)"
              : `cannot be read (${(error as Error).message})`;
      throw new RiendaError("usage", `${shown}: ${why} (give a file, or the schema itself as JSON starting with "{")`);
    }
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    throw new RiendaError("usage", `${shown}: is not JSON: ${(error as Error).message}`);
  }
  if (!isRecord(schema)) throw new RiendaError("usage", `${shown}: must be a JSON Schema object`);
  const validator = createArgumentValidator();
  const problem = (await validator.schemaProblem(schema, "pointers")) ?? (await validator.compileProblem(schema));
  if (problem !== undefined) throw new RiendaError("usage", `${shown}: is not a usable JSON Schema: ${problem}`);
  const checked = schema;
  return {
    schema: checked,
    portFor(model) {
      const wire = wireSchema(checked);
      return {
        wire,
        mode: structuredOutputOf(model),
        strict: fitsStrictMode(wire.schema),
        problems: (answer) => validator.problems(checked, answer),
      };
    },
  };
}
