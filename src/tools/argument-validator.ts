import type { ErrorObject, ValidateFunction } from "ajv";
import type AjvClass from "ajv";

/** Checks arguments against a tool's `parameters`, compiling each schema once, on first use. */
export interface ArgumentValidator {
  /** Problems of `args` against `schema`, one line each; empty when they match. */
  check(schema: Record<string, unknown>, args: unknown): Promise<string[]>;
  /** Why `schema` is not an acceptable JSON Schema, or undefined when it is. Never compiles it. */
  schemaProblem(schema: unknown): Promise<string | undefined>;
}

/**
 * One ajv instance per validator, created on first need: importing ajv and
 * compiling schemas costs milliseconds each, so a schema is compiled only
 * when its tool is called, and then cached (by schema object identity).
 */
export function createArgumentValidator(): ArgumentValidator {
  let ajv: AjvClass | undefined;
  const compiled = new WeakMap<object, ValidateFunction | Error>();

  const instance = async (): Promise<AjvClass> => {
    if (ajv) return ajv;
    const mod = (await import("ajv")) as unknown as { default: typeof AjvClass };
    // strict: false because providers' schemas carry keywords ajv does not know;
    // formats are hints for the model, not something we enforce.
    ajv = new mod.default({ allErrors: true, strict: false, validateFormats: false, logger: false });
    return ajv;
  };

  return {
    async check(schema, args) {
      let validate = compiled.get(schema);
      if (!validate) {
        try {
          validate = (await instance()).compile(schema);
        } catch (error) {
          validate = error instanceof Error ? error : new Error(String(error));
        }
        compiled.set(schema, validate);
      }
      if (validate instanceof Error) return [`the tool's parameters schema cannot be used: ${validate.message}`];
      if (validate(args)) return [];
      return (validate.errors ?? []).map(describeError);
    },

    async schemaProblem(schema) {
      if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return "must be a JSON Schema object";
      const a = await instance();
      try {
        if (a.validateSchema(schema as object)) return undefined;
        return a.errorsText(a.errors, { dataVar: "parameters" });
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    },
  };
}

function describeError(error: ErrorObject): string {
  const at = error.instancePath === "" ? "" : `${error.instancePath.slice(1)}: `;
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "additionalProperties") return `${at}unexpected property "${String(params.additionalProperty)}"`;
  if (error.keyword === "required") return `${at}missing required property "${String(params.missingProperty)}"`;
  if (error.keyword === "enum") return `${at}${error.message}: ${JSON.stringify(params.allowedValues)}`;
  return `${at}${error.message ?? "is invalid"}`;
}
