/** Checks tool arguments and schemas with ajv, loaded lazily and compiled once per schema. */
import type { ErrorObject, ValidateFunction } from "ajv";
import { describeSchemaErrors } from "./schema-errors.ts";
import type AjvClass from "ajv";
import { AJV_OPTIONS, DRAFT_07_META_ID } from "./ajv-options.ts";
import { loadLinearRegExpEngine } from "./linear-regexp.ts";
import { validate as validateDraft07 } from "./json-schema-meta.generated.ts";

/** Checks arguments against a tool's `parameters`, compiling each schema once, on first use. */
export interface ArgumentValidator {
  /** Problems of `args` against `schema`, one line each; empty when they match. */
  check(schema: Record<string, unknown>, args: unknown): Promise<string[]>;
  /**
   * Why `schema` is not an acceptable JSON Schema, or undefined when it is.
   * Never compiles it. `pointers`: each problem at its JSON Pointer in the
   * schema (a schema the user wrote, `--schema`), instead of under
   * `parameters` (a tool's).
   */
  schemaProblem(schema: unknown, style?: "parameters" | "pointers"): Promise<string | undefined>;
  /** Why `schema` cannot be compiled (a `$ref` that resolves nowhere, ...), or undefined when it can; compiles and keeps it. */
  compileProblem(schema: Record<string, unknown>): Promise<string | undefined>;
  /** Problems of `value` against `schema`, each at its JSON Pointer (`""` is the root); empty when it matches. */
  problems(schema: Record<string, unknown>, value: unknown): Promise<SchemaProblem[]>;
  /** Starts loading ajv in the background, so that the first check does not wait for it. */
  prepare(): void;
}

/** One way a value misses its schema: where (a JSON Pointer, `""` for the whole value) and what. */
export interface SchemaProblem {
  pointer: string;
  message: string;
}

/** The generated draft-07 meta-schema validator, typed the way ajv's standalone code behaves. */
const metaValidator = validateDraft07 as unknown as ((schema: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** `$schema` values under which ajv uses its default (draft-07) meta-schema; others go to ajv itself. */
const DRAFT_07_NAMES: ReadonlySet<string> = new Set([
  DRAFT_07_META_ID,
  `${DRAFT_07_META_ID}#`,
  "http://json-schema.org/schema",
]);

/**
 * One ajv instance per validator and JSON Schema version, created on first
 * need: importing ajv and compiling schemas costs milliseconds each, so a
 * schema is compiled only when its tool is called, and then cached (by
 * schema object identity).
 *
 * Whether a schema is a valid JSON Schema is answered by ajv's draft-07
 * meta-schema compiled ahead of time (json-schema-meta.generated.ts, same
 * options, same errors), so discovery never imports ajv. A schema naming
 * another version in `$schema` (2020-12, ...) is left to ajv's class for
 * that version.
 */
export function createArgumentValidator(): ArgumentValidator {
  const compiled = new WeakMap<object, ValidateFunction | Error>();

  const loading = new Map<Dialect, Promise<AjvClass>>();
  const instance = (dialect: Dialect = "draft-07"): Promise<AjvClass> => {
    let pending = loading.get(dialect);
    if (!pending) {
      pending = createAjv(dialect);
      // A failed import shows again, as the error it is, when a check needs ajv.
      pending.catch(() => loading.delete(dialect));
      loading.set(dialect, pending);
    }
    return pending;
  };

  /** What ajv's compile does, in the same order: check against the meta-schema, then compile. */
  const compile = async (schema: Record<string, unknown>): Promise<ValidateFunction> => {
    const meta = metaCheck(schema);
    const dialect = dialectOf(schema.$schema);
    if (meta === "other") {
      if (dialect === undefined) throw new Error(unknownDialect(schema.$schema as string));
      const a = await instance(dialect);
      if (!a.validateSchema(schema)) throw new Error(`schema is invalid: ${a.errorsText(a.errors)}`);
    } else if (meta !== true) {
      throw new Error(`schema is invalid: ${errorsText(meta, "data")}`);
    }
    return (await instance(dialect)).compile(schema);
  };

  const compiledOnce = async (schema: Record<string, unknown>): Promise<ValidateFunction | Error> => {
    let validate = compiled.get(schema);
    if (!validate) {
      try {
        validate = await compile(schema);
      } catch (error) {
        validate = error instanceof Error ? error : new Error(String(error));
      }
      compiled.set(schema, validate);
    }
    return validate;
  };

  return {
    async check(schema, args) {
      const validate = await compiledOnce(schema);
      if (validate instanceof Error) return [`the tool's parameters schema cannot be used: ${validate.message}`];
      if (validate(args)) return [];
      return (validate.errors ?? []).map(describeError);
    },

    async compileProblem(schema) {
      const validate = await compiledOnce(schema);
      return validate instanceof Error ? validate.message : undefined;
    },

    async problems(schema, value) {
      const validate = await compiledOnce(schema);
      if (validate instanceof Error)
        return [{ pointer: "", message: `the schema cannot be used: ${validate.message}` }];
      if (validate(value)) return [];
      return (validate.errors ?? []).map((error) => ({
        pointer: error.instancePath,
        message: describeError({ ...error, instancePath: "" }),
      }));
    },

    async schemaProblem(schema, style = "parameters") {
      if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return "must be a JSON Schema object";
      const text = (errors: ErrorObject[]) =>
        style === "pointers" ? describeSchemaErrors(errors, schema) : errorsText(errors, "parameters");
      try {
        const meta = metaCheck(schema as Record<string, unknown>);
        if (meta === true) return undefined;
        if (meta !== "other") return text(meta);
        const named = (schema as Record<string, unknown>).$schema;
        const dialect = dialectOf(named);
        if (dialect === undefined) return unknownDialect(named as string);
        const a = await instance(dialect);
        if (a.validateSchema(schema as object)) return undefined;
        return text(a.errors ?? []);
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    },

    prepare() {
      instance().catch(() => undefined);
    },
  };
}

/**
 * The JSON Schema versions a tool's `parameters` may name in `$schema`.
 * draft-07 is ajv's default; the others are what tools written today use
 * (2020-12 is the current version, and MCP's default), all of which ajv
 * ships. Older drafts (draft-04) would need another package.
 */
type Dialect = "draft-06" | "draft-07" | "2019-09" | "2020-12";

/** Each version's `$schema` name, as its meta-schema spells it (without the optional final `#`). */
const DIALECT_NAMES: ReadonlyMap<string, Dialect> = new Map([
  ["http://json-schema.org/draft-06/schema", "draft-06"],
  [DRAFT_07_META_ID, "draft-07"],
  ["http://json-schema.org/schema", "draft-07"],
  ["https://json-schema.org/draft/2019-09/schema", "2019-09"],
  ["https://json-schema.org/draft/2020-12/schema", "2020-12"],
]);

/**
 * The version `$schema` names: draft-07 when there is none, undefined for a
 * string that names no version Rienda knows. A `$schema` that is not a
 * string goes to the default ajv, which refuses it with its own message.
 */
function dialectOf(named: unknown): Dialect | undefined {
  if (typeof named !== "string") return "draft-07";
  return DIALECT_NAMES.get(named.endsWith("#") ? named.slice(0, -1) : named);
}

function unknownDialect(named: string): string {
  return `"$schema" names ${JSON.stringify(named)}, a JSON Schema version Rienda cannot check arguments against (it knows draft-06, draft-07, 2019-09 and 2020-12)`;
}

/** An ajv for one JSON Schema version, with Rienda's options; imported only when a schema needs it. */
async function createAjv(dialect: Dialect): Promise<AjvClass> {
  // The meta-schema check is done before compiling (see compile above), so
  // ajv does not compile its own meta-schema just to repeat it. Patterns
  // match in linear time: the text is the model's (linear-regexp.ts).
  const options = { ...AJV_OPTIONS, validateSchema: false, code: { regExp: await loadLinearRegExpEngine() } };
  switch (dialect) {
    case "2020-12": {
      const { default: Ajv2020 } = await import("ajv/dist/2020");
      return new Ajv2020(options);
    }
    case "2019-09": {
      const { default: Ajv2019 } = await import("ajv/dist/2019");
      return new Ajv2019(options);
    }
    case "draft-06":
    case "draft-07": {
      const Ajv = ((await import("ajv")) as unknown as { default: typeof AjvClass }).default;
      const ajv = new Ajv(options);
      if (dialect === "draft-06") {
        const { default: draft06 } = await import("ajv/dist/refs/json-schema-draft-06.json");
        ajv.addMetaSchema(draft06);
      }
      return ajv;
    }
  }
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
  if (error.keyword === "additionalProperties")
    return `${at}unexpected property "${String(params.additionalProperty)}"`;
  if (error.keyword === "unevaluatedProperties")
    return `${at}unexpected property "${String(params.unevaluatedProperty)}"`;
  if (error.keyword === "required") return `${at}missing required property "${String(params.missingProperty)}"`;
  if (error.keyword === "enum") return `${at}${error.message}: ${JSON.stringify(params.allowedValues)}`;
  return `${at}${error.message ?? "is invalid"}`;
}
