/**
 * Why a JSON Schema the user wrote is not one, in the user's terms
 * (`--schema`, docs/pipelines.md): each problem at its JSON Pointer in the
 * schema (`/type`, `/properties/n/minimum`), with the value found there and
 * what it must be, the alternatives of one place joined by "or". Nothing of
 * how it is checked (ajv's data variable, an `anyOf` of the meta-schema)
 * shows.
 */
import type { ErrorObject } from "ajv";

/** `/type is "objekt": must be one of "array", "boolean", ... or must be an array`. */
export function describeSchemaErrors(errors: readonly ErrorObject[], schema: unknown): string {
  const byPlace = new Map<string, ErrorObject[]>();
  for (const error of errors) byPlace.set(error.instancePath, [...(byPlace.get(error.instancePath) ?? []), error]);
  return [...byPlace].map(([pointer, found]) => describePlace(pointer, found, schema)).join("; ");
}

function describePlace(pointer: string, errors: ErrorObject[], schema: unknown): string {
  // "must match a schema in anyOf" only says that the others are alternatives.
  const alternatives = errors.filter((e) => e.keyword !== "anyOf" && e.keyword !== "oneOf");
  const musts = (alternatives.length > 0 ? alternatives : errors).map(mustOf);
  const value = valueAt(schema, pointer);
  const shown = value === undefined ? "" : ` is ${JSON.stringify(value).slice(0, 80)}`;
  return `${pointer === "" ? "the schema" : pointer}${shown}: ${[...new Set(musts)].join(" or ")}`;
}

function mustOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "enum" && Array.isArray(params.allowedValues))
    return `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(", ")}`;
  if (error.keyword === "type" && typeof params.type === "string")
    return `must be ${/^[aeiou]/.test(params.type) ? "an" : "a"} ${params.type}`;
  return error.message ?? "is not valid";
}

/** The value at a JSON Pointer, when it is short enough to show (not an object or a list). */
function valueAt(root: unknown, pointer: string): unknown {
  let at = root;
  for (const part of pointer.split("/").slice(1)) {
    if (typeof at !== "object" || at === null) return undefined;
    at = (at as Record<string, unknown>)[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return typeof at === "object" && at !== null ? undefined : at;
}
