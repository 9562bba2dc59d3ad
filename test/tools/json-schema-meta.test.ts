import { describe, expect, test } from "bun:test";
import Ajv from "ajv";
import { readFileSync } from "node:fs";
import { GENERATED_PATH, generateMetaValidator } from "../../scripts/generate-meta-validator.ts";
import { AJV_OPTIONS } from "../../src/tools/ajv-options.ts";
import { createArgumentValidator, createShellTool } from "../../src/tools/index.ts";

const shell = createShellTool(async () => ({ code: 0, stdout: "", stderr: "", timedOut: false, interrupted: false }));

/** Valid and invalid draft-07 `parameters`, including every `$schema` form the fast path accepts and some it leaves to ajv. */
const SCHEMAS: unknown[] = [
  { type: "object" },
  {},
  shell.parameters,
  {
    type: "object",
    properties: { path: { type: "string", description: "d" } },
    required: ["path"],
    additionalProperties: false,
  },
  { type: "object", definitions: { p: { type: "string" } }, properties: { a: { $ref: "#/definitions/p" } } },
  { type: "object", properties: { n: { type: "integer", minimum: 0, maximum: 10 }, e: { enum: ["a", "b"] } } },
  {
    type: "object",
    properties: { list: { type: "array", items: { type: "object", properties: { x: { type: "number" } } } } },
  },
  {
    type: "object",
    properties: { x: { anyOf: [{ type: "string" }, { type: "null" }] } },
    format: "whatever",
    "x-vendor": 1,
  },
  { type: "strng" },
  { type: 5 },
  { type: ["string", "string"] },
  { type: [] },
  { properties: 1 },
  { properties: { a: { type: "nope" }, b: { minimum: "1" } } },
  { required: "x" },
  { required: ["a", "a"] },
  { minimum: "1", maxLength: -1 },
  { items: [1] },
  { enum: 1 },
  { additionalProperties: "no" },
  { $id: 5, title: 3, description: false },
  { type: "object", properties: { deep: { properties: { deeper: { items: { type: "bogus" } } } } } },
  { $schema: "http://json-schema.org/draft-07/schema#", type: "object" },
  { $schema: "http://json-schema.org/draft-07/schema#", type: "x" },
  { $schema: "http://json-schema.org/draft-07/schema", type: 1 },
  { $schema: "http://json-schema.org/schema", type: "object" },
  { $schema: "http://json-schema.org/schema", required: 1 },
  { $schema: "http://json-schema.org/schema#", type: "object" },
  { $schema: 5, type: "object" },
];

/** What ajv says, asked directly the way the validator used to ask it. */
function ajvSchemaProblem(schema: unknown): string | undefined {
  const ajv = new Ajv(AJV_OPTIONS);
  try {
    if (ajv.validateSchema(schema as object)) return undefined;
    return ajv.errorsText(ajv.errors, { dataVar: "parameters" });
  } catch (error) {
    return (error as Error).message;
  }
}

function ajvCompileProblem(schema: unknown): string | undefined {
  try {
    new Ajv(AJV_OPTIONS).compile(schema as object);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe("the generated meta-schema validator", () => {
  test("the committed file is what the script generates from the installed ajv", () => {
    expect(readFileSync(GENERATED_PATH, "utf8")).toBe(generateMetaValidator());
  });

  test("schemaProblem says exactly what ajv says, for valid and invalid schemas", async () => {
    const validator = createArgumentValidator();
    let invalid = 0;
    for (const schema of SCHEMAS) {
      const expected = ajvSchemaProblem(schema);
      if (expected !== undefined) invalid++;
      expect({ schema, problem: await validator.schemaProblem(schema) }).toEqual({ schema, problem: expected });
    }
    // The corpus exercises both outcomes.
    expect(invalid).toBeGreaterThan(10);
    expect(SCHEMAS.length - invalid).toBeGreaterThan(6);
  });

  test("check refuses an invalid schema with ajv's own compile message, and validates with a valid one", async () => {
    const validator = createArgumentValidator();
    // ajv's compile trips over a non-string $id before its own meta-schema
    // check; here the check comes first. Discovery refuses such a schema anyway.
    for (const schema of SCHEMAS.filter((s) => typeof (s as { $id?: unknown }).$id !== "number")) {
      const expected = ajvCompileProblem(schema);
      const problems = await validator.check(schema as Record<string, unknown>, {});
      if (expected === undefined) expect(problems.every((p) => !p.includes("cannot be used"))).toBe(true);
      else expect(problems).toEqual([`the tool's parameters schema cannot be used: ${expected}`]);
    }
    const strict = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] };
    expect(await validator.check(strict, { n: 1 })).toEqual([]);
    expect(await validator.check(strict, { n: "x" })).toEqual(["n: must be integer"]);
  });
});

describe("prepare", () => {
  test("loading ajv ahead changes nothing about the answers, and may be asked for twice", async () => {
    const validator = createArgumentValidator();
    validator.prepare();
    validator.prepare();
    const schema = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] };
    expect(await validator.check(schema, {})).toEqual(['missing required property "n"']);
    expect(await validator.check(schema, { n: 2 })).toEqual([]);
    expect(await validator.check({ type: "strng" }, {})).toEqual([
      `the tool's parameters schema cannot be used: ${ajvCompileProblem({ type: "strng" })}`,
    ]);
  });
});

describe("other JSON Schema versions named in $schema", () => {
  const versions = [
    ["2020-12", "https://json-schema.org/draft/2020-12/schema"],
    ["2020-12 with #", "https://json-schema.org/draft/2020-12/schema#"],
    ["2019-09", "https://json-schema.org/draft/2019-09/schema"],
    ["draft-06", "http://json-schema.org/draft-06/schema#"],
  ] as const;
  for (const [version, $schema] of versions) {
    test(`${version} is a JSON Schema: accepted, and arguments are checked by its rules`, async () => {
      const validator = createArgumentValidator();
      const schema = { $schema, type: "object", properties: { n: { type: "integer" } }, required: ["n"] };
      expect(await validator.schemaProblem(schema)).toBeUndefined();
      expect(await validator.check(schema, { n: 1 })).toEqual([]);
      expect(await validator.check(schema, { n: "x" })).toEqual(["n: must be integer"]);
      expect(await validator.schemaProblem({ $schema, type: "strng" })).toContain("parameters/type");
    });
  }

  test("2020-12 keywords mean what 2020-12 says (prefixItems, items: false), 2019-09's unevaluatedProperties names the property", async () => {
    const validator = createArgumentValidator();
    const tuple = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { t: { type: "array", prefixItems: [{ type: "number" }], items: false } },
    };
    expect(await validator.check(tuple, { t: [1] })).toEqual([]);
    expect(await validator.check(tuple, { t: [1, 2] })).toEqual(["t: must NOT have more than 1 items"]);
    const closed = {
      $schema: "https://json-schema.org/draft/2019-09/schema",
      type: "object",
      properties: { a: { type: "string" } },
      unevaluatedProperties: false,
    };
    expect(await validator.check(closed, { a: "x", z: 1 })).toEqual(['unexpected property "z"']);
  });

  test("a version Rienda does not know is refused with a message naming it and the versions it knows", async () => {
    const validator = createArgumentValidator();
    const schema = { $schema: "http://json-schema.org/draft-04/schema#", type: "object" };
    const problem = await validator.schemaProblem(schema);
    expect(problem).toContain('"http://json-schema.org/draft-04/schema#"');
    expect(problem).toContain("2020-12");
    expect(await validator.check(schema, {})).toEqual([`the tool's parameters schema cannot be used: ${problem}`]);
  });
});
