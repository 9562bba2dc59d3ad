/**
 * schema/rpc.schema.json compiled with ajv, for the tests that check every
 * line `rienda rpc` writes (and every command they send) against it.
 * Never imports src/.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import Ajv from "ajv";

const SCHEMA = JSON.parse(readFileSync(resolve(import.meta.dir, "../../schema/rpc.schema.json"), "utf8")) as Record<
  string,
  unknown
>;
const ajv = new Ajv({ allErrors: true, allowUnionTypes: true });
ajv.addSchema(SCHEMA, "rpc");

/** Whether a line Rienda writes matches `#/definitions/output`. */
export const validOutput = ajv.compile({ $ref: "rpc#/definitions/output" });
/** Whether a command matches `#/definitions/command`. */
export const validCommand = ajv.compile({ $ref: "rpc#/definitions/command" });

/** What the last check found wrong, for a failure message. */
export function schemaErrors(check: typeof validOutput): string {
  return ajv.errorsText(check.errors);
}
