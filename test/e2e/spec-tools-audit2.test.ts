/**
 * A second, adversarial reading of tools.md (the specification page) against
 * the compiled binary, for what the first audit (spec-tools-audit.test.ts)
 * did not try: each test is a case the page covers where Rienda did
 * something else, and failed before its fix.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents, scenario, toolNamesOf, toolResultsOf, type Scenario } from "../support/scenario.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

/** A tool whose execute body is `body` (a function body taking ctx and args). */
function toolSource(body: string, parameters = '{ type: "object" }'): string {
  return `module.exports = { description: "d", parameters: ${parameters}, execute: function(ctx, args) { ${body} } };\n`;
}

describe("tools.md: parameters is a JSON Schema, passed to the provider verbatim", () => {
  // 2020-12 is the current JSON Schema (and what MCP servers declare); 2019-09 and draft-06 are JSON Schemas too.
  const versions = [
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2019-09/schema",
    "http://json-schema.org/draft-06/schema#",
  ];

  test("a schema naming its version in $schema is a tool: listed without a diagnostic, sent verbatim, its arguments checked", async () => {
    s = await scenario({ agentFrontmatter: `tools: [${versions.map((_, i) => `v${i}`).join(", ")}]` });
    const parameters = versions.map(($schema) => ({
      $schema,
      type: "object",
      properties: { path: { type: "string" } },
      required: ["path"],
      additionalProperties: false,
    }));
    parameters.forEach((p, i) => s!.inst.tool(`v${i}`, toolSource('return "read " + args.path;', JSON.stringify(p))));
    const list = await s.inst.run(["tool", "list"]);
    expect(list.stderr).toBe("");
    for (const [i] of versions.entries()) expect(list.stdout).toContain(`v${i}\n`);
    s.server.script(
      {
        toolCalls: versions.flatMap((_, i) => [
          { id: `ok${i}`, name: `v${i}`, arguments: { path: "a.txt" } },
          { id: `bad${i}`, name: `v${i}`, arguments: { path: 5 } },
        ]),
      },
      { text: "done" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    expect(r.code).toBe(0);
    expect(toolNamesOf(s.server.requests[0]!)).toEqual(versions.map((_, i) => `v${i}`));
    const sent = (s.server.requests[0]!.body as { tools: { function: { parameters: unknown } }[] }).tools.map((t) => t.function.parameters);
    expect(sent).toEqual(parameters);
    const results = jsonEvents(r.stdout).filter((e) => e.type === "tool_result");
    expect(results.map((e) => [e.id, e.isError])).toEqual(versions.flatMap((_, i) => [[`ok${i}`, false], [`bad${i}`, true]]));
    expect(toolResultsOf(s.server.requests[1]!).filter((_, i) => i % 2 === 0)).toEqual(versions.map(() => "read a.txt"));
    for (const e of results.filter((e) => e.isError)) expect(e.text as string).toContain("path: must be string");
  });
});

describe("tools.md: ctx.file.read returns the file content as text; exec returns what the command printed", () => {
  test("a leading byte order mark is content: read keeps it (a read and write back leaves the file as it was), exec's stdout and stderr keep it", async () => {
    s = await scenario();
    const bytes = Buffer.from("\uFEFFname,value\n", "utf8");
    writeFileSync(join(s.inst.workspace, "table.csv"), bytes);
    s.inst.tool(
      "bom",
      toolSource(`const text = ctx.file.read("table.csv");
      ctx.file.write("copy.csv", text);
      const e = ctx.system.exec("cat table.csv; cat table.csv >&2");
      return JSON.stringify({ read: text, stdout: e.stdout, stderr: e.stderr });`),
    );
    const r = await s.inst.run(["tool", "run", "bom", "--args", "{}"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ read: "\uFEFFname,value\n", stdout: "\uFEFFname,value\n", stderr: "\uFEFFname,value\n" });
    expect(Buffer.compare(readFileSync(join(s.inst.workspace, "copy.csv")), bytes)).toBe(0);
  });
});
