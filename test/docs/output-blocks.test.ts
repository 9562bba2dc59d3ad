/**
 * Every block of README.md and docs/ that shows what the program prints is
 * either compared with the program by a test, or marked as illustrative
 * with the reason. A new output block without a marker fails here: add
 * `<!-- checked by test/...: name -->` (and the check) or `<!-- illustrative:
 * why -->` on the line before its fence.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { blocksOf, documents, ROOT, showsOutput } from "../support/doc-blocks.ts";

const all = documents().flatMap(blocksOf);

describe("output blocks of the documentation", () => {
  test("the scan finds the blocks (a sanity check of the scanner itself)", () => {
    expect(all.length).toBeGreaterThan(100);
    expect(all.filter(showsOutput).length).toBeGreaterThan(25);
  });

  test("every block showing output is checked by a test or marked illustrative", () => {
    const unmarked = all
      .filter((b) => showsOutput(b) && b.marker === undefined)
      .map((b) => `${b.doc}:${b.line}: ${b.body.split("\n")[0]}`);
    expect(unmarked).toEqual([]);
  });

  test("every 'checked by' names a test that exists and reads that document (and names the block)", () => {
    const wrong: string[] = [];
    for (const block of all) {
      if (block.marker?.kind !== "checked") continue;
      const file = join(ROOT, block.marker.test);
      if (!existsSync(file)) {
        wrong.push(`${block.doc}:${block.line}: ${block.marker.test} does not exist`);
        continue;
      }
      const source = readFileSync(file, "utf8");
      if (!source.includes(block.doc))
        wrong.push(`${block.doc}:${block.line}: ${block.marker.test} never mentions ${block.doc}`);
      if (block.marker.name !== undefined && !source.includes(JSON.stringify(block.marker.name))) {
        wrong.push(`${block.doc}:${block.line}: ${block.marker.test} never names "${block.marker.name}"`);
      }
    }
    expect(wrong).toEqual([]);
  });

  test("every block marked illustrative says why", () => {
    for (const block of all)
      if (block.marker?.kind === "illustrative") expect(block.marker.why.length).toBeGreaterThan(10);
  });
});
