import type { ErrorObject, ValidateFunction } from "ajv";
import type AjvClass from "ajv";
import { AJV_OPTIONS, DRAFT_07_META_ID } from "./ajv-options.ts";
import { validate as validateDraft07 } from "./json-schema-meta.generated.ts";

/** Checks arguments against a tool's `parameters`, compiling each schema once, on first use. */
export interface ArgumentValidator {
  /** Problems of `args` against `schema`, one line each; empty when they match. */
  check(schema: Record<string, unknown>, args: unknown): Promise<string[]>;
  /** Why `schema` is not an acceptable JSON Schema, or undefined when it is. Never compiles it. */
  schemaProblem(schema: unknown): Promise<string | undefined>;
  /** Starts loading ajv in the background, so that the first check does not wait for it. */
  prepare(): void;
}

/** The generated draft-07 meta-schema validator, typed the way ajv's standalone code behaves. */
const metaValidator = validateDraft07 as unknown as ((schema: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** `$schema` values under which ajv uses its default (draft-07) meta-schema; others go to ajv itself. */
const DRAFT_07_NAMES: ReadonlySet<string> = new Set([DRAFT_07_META_ID, `${DRAFT_07_META_ID}#`, "http://json-schema.org/schema"]);

/**
 * One ajv instance per validator, created on first need: importing ajv and
 * compiling schemas costs milliseconds each, so a schema is compiled only
 * when its tool is called, and then cached (by schema object identity).
 *
 * Whether a schema is a valid JSON Schema is answered by ajv's draft-07
 * meta-schema compiled ahead of time (json-schema-meta.generated.ts, same
 * options, same errors), so discovery never imports ajv. A schema naming
 * another `$schema` is left to ajv, which knows (or refuses) it.
 */
export function createArgumentValidator(): ArgumentValidator {
  const compiled = new WeakMap<object, ValidateFunction | Error>();

  let loading: Promise<AjvClass> | undefined;
  const instance = (): Promise<AjvClass> =>
    (loading ??= import("ajv").then((mod) => {
      const Ajv = (mod as unknown as { default: typeof AjvClass }).default;
      // The meta-schema check is done before compiling (see compile below), so
      // ajv does not compile its own meta-schema just to repeat it.
      return new Ajv({ ...AJV_OPTIONS, validateSchema: false });
    }));

  /** What ajv's compile does, in the same order: check against the meta-schema, then compile. */
  const compile = async (schema: Record<string, unknown>): Promise<ValidateFunction> => {
    const meta = metaCheck(schema);
    if (meta === "other") {
      const a = await instance();
      if (!a.validateSchema(schema)) throw new Error(`schema is invalid: ${a.errorsText(a.errors)}`);
    } else if (meta !== true) {
      throw new Error(`schema is invalid: ${errorsText(meta, "data")}`);
    }
    return (await instance()).compile(schema);
  };

  return {
    async check(schema, args) {
      let validate = compiled.get(schema);
      if (!validate) {
        try {
          validate = await compile(schema);
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
      try {
        const meta = metaCheck(schema as Record<string, unknown>);
        if (meta === true) return undefined;
        if (meta !== "other") return errorsText(meta, "parameters");
        const a = await instance();
        if (a.validateSchema(schema as object)) return undefined;
        return a.errorsText(a.errors, { dataVar: "parameters" });
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    },

    prepare() {
      // A failed import shows again, as the error it is, when check() needs ajv.
      instance().catch(() => (loading = undefined));
    },
  };
}

/**
 * The draft-07 meta-schema's verdict: true, or its errors; "other" when the
 * schema names a `$schema` that is not draft-07 (or is not a string: ajv
 * then throws its own message).
 */
function metaCheck(schema: Record<string, unknown>): true | ErrorObject[] | "other" {
  const named = schema.$schema;
  if (named !== undefined && !(typeof named === "string" && DRAFT_07_NAMES.has(named))) return "other";
  if (metaValidator(schema)) return true;
  return metaValidator.errors ?? [];
}

/** ajv's own error text: `<dataVar><instancePath> <message>`, joined by ", ". */
function errorsText(errors: ErrorObject[], dataVar: string): string {
  if (errors.length === 0) return "No errors";
  return errors.map((e) => `${dataVar}${e.instancePath} ${e.message}`).join(", ");
}

function describeError(error: ErrorObject): string {
  const at = error.instancePath === "" ? "" : `${error.instancePath.slice(1)}: `;
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "additionalProperties") return `${at}unexpected property "${String(params.additionalProperty)}"`;
  if (error.keyword === "required") return `${at}missing required property "${String(params.missingProperty)}"`;
  if (error.keyword === "enum") return `${at}${error.message}: ${JSON.stringify(params.allowedValues)}`;
  return `${at}${error.message ?? "is invalid"}`;
}
