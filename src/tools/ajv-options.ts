/** The ajv options every schema check uses. */
import type { Options } from "ajv";

/**
 * The one set of ajv options Rienda validates with. The generated meta-schema
 * validator (json-schema-meta.generated.ts) is built with these too, so that
 * its answers match what ajv itself would say.
 *
 * strict: false because providers' schemas carry keywords ajv does not know;
 * formats are hints for the model, not something we enforce.
 */
export const AJV_OPTIONS = {
  allErrors: true,
  strict: false,
  validateFormats: false,
  logger: false,
} as const satisfies Options;

/** The `$id` under which ajv (draft-07 class) keeps its default meta-schema. */
export const DRAFT_07_META_ID = "http://json-schema.org/draft-07/schema";
