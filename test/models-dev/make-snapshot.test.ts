/**
 * The build-time half (scripts/models-dev/): reading the catalogue out of
 * an executable's bytes as data, trimming it, and the generated files,
 * whose packed entries decode back to the trimmed catalogue.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { extractCatalogue, REQUIRED_PROVIDERS } from "../../scripts/models-dev/extract-catalogue.ts";
import { readLiteral } from "../../scripts/models-dev/js-literal.ts";
import { DATA_PATH, SOURCE_PATH } from "../../scripts/models-dev/make-snapshot.ts";
import { catalogueDate, snapshotFiles, trimCatalogue } from "../../scripts/models-dev/snapshot-file.ts";
import { GENERATED_SNAPSHOT_SOURCE, providerSlices } from "../../src/models-dev/snapshot.generated.ts";

const latin1 = (text: string) => Buffer.from(text, "utf8").toString("latin1");

describe("readLiteral", () => {
  test("reads what minified code writes: bare and quoted keys, !0/!1, exponents, escapes, UTF-8, void 0", () => {
    const code = latin1(
      `{a:!0,"b-c":!1,n:1e6,f:.5,m:-2,s:"x\\"y\\u00e9\\x41\\u{1F600}",t:'q"',u:\`tpl\`,z:null,v:void 0,l:[1,"é",{k:[]}],"9":true}`,
    );
    const { value, end } = readLiteral(code, 0);
    expect(value).toEqual({
      a: true,
      "b-c": false,
      n: 1e6,
      f: 0.5,
      m: -2,
      s: 'x"yéA😀',
      t: 'q"',
      u: "tpl",
      z: null,
      l: [1, "é", { k: [] }],
      "9": true,
    });
    expect(Object.hasOwn(value as object, "v")).toBe(false);
    expect(end).toBe(code.length);
  });

  test("anything but data is refused with the byte offset: a call, a variable, a template with ${}", () => {
    expect(() => readLiteral("{a:f()}", 0)).toThrow("expected a value at byte 3");
    expect(() => readLiteral("{a:x}", 0)).toThrow("expected a value at byte 3");
    expect(() => readLiteral("{a:`${x}`}", 0)).toThrow("a template without ${}");
    expect(() => readLiteral('{a:"open', 0)).toThrow("the end of a string");
  });

  test("a key named __proto__ is an own key, never the prototype", () => {
    const { value } = readLiteral('{__proto__:{polluted:!0},"constructor":1}', 0);
    expect(Object.hasOwn(value as object, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

/** A catalogue in minified form, as OpenCode's executable holds it. */
function minifiedCatalogue(providers: readonly string[]): string {
  return `{${providers
    .map(
      (id) =>
        `"${id}":{id:"${id}",env:["${id.toUpperCase()}_KEY"],npm:"@ai-sdk/openai-compatible",api:"https://${id}.example/v1",name:"${id} name",doc:"https://d",models:{"m-1":{id:"m-1",name:"M 1",description:"dropped",family:"f",attachment:!1,reasoning:!0,reasoning_options:[{type:"effort",values:["low","high"]}],tool_call:!0,status:"beta",release_date:"2026-01-02",last_updated:"2026-0${id.length % 9}-15",modalities:{input:["text"],output:["text"]},open_weights:!0,limit:{context:2e5,output:32e3},cost:{input:1,output:2,cache_read:.1},provider:{npm:"@ai-sdk/anthropic"}}}}`,
    )
    .join(",")}}`;
}

describe("extractCatalogue", () => {
  test("finds the catalogue among other bytes and reads it whole", () => {
    const binary = Buffer.concat([
      Buffer.from([0, 1, 2, 255]),
      Buffer.from(`var x={a:1};p=()=>(${minifiedCatalogue(REQUIRED_PROVIDERS)});`),
      Buffer.from([0]),
    ]);
    const catalogue = extractCatalogue(binary);
    expect(Object.keys(catalogue)).toEqual([...REQUIRED_PROVIDERS]);
    expect((catalogue["opencode-go"]!.models as Record<string, Record<string, unknown>>)["m-1"]!.limit).toEqual({
      context: 200000,
      output: 32000,
    });
  });

  test("a catalogue without the built-ins' providers, or none at all, fails with a message", () => {
    expect(() => extractCatalogue(Buffer.from(minifiedCatalogue(["openai"])))).toThrow(
      "the catalogue lacks opencode-go, zai-coding-plan",
    );
    expect(() => extractCatalogue(Buffer.from("no catalogue here"))).toThrow(
      "no models.dev catalogue found in the executable (nothing shaped like it)",
    );
  });
});

describe("the generated files", () => {
  const catalogue = extractCatalogue(Buffer.from(minifiedCatalogue(REQUIRED_PROVIDERS)));
  const trimmed = trimCatalogue(catalogue);

  test("keeps only the fields Rienda reads, providers sorted", () => {
    expect(Object.keys(trimmed)).toEqual([...REQUIRED_PROVIDERS].sort());
    const provider = trimmed.openai!;
    expect(Object.keys(provider)).toEqual(["id", "name", "api", "npm", "env", "models"]);
    expect((provider.models as Record<string, unknown>)["m-1"]).toEqual({
      id: "m-1",
      name: "M 1",
      status: "beta",
      release_date: "2026-01-02",
      reasoning: true,
      reasoning_options: [{ type: "effort", values: ["low", "high"] }],
      tool_call: true,
      modalities: { input: ["text"], output: ["text"] },
      limit: { context: 200000, output: 32000 },
      cost: { input: 1, output: 2, cache_read: 0.1 },
      provider: { npm: "@ai-sdk/anthropic" },
    });
  });

  test("its date is the newest last_updated", () => {
    expect(catalogueDate(catalogue)).toBe("2026-08-15");
  });

  test("the data file decodes back to the trimmed catalogue through the module's index, which lists each provider's endpoints", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rienda-snapshot-"));
    try {
      const files = snapshotFiles(trimmed, { date: "2026-08-15", source: "pkg@1.0.0" });
      const file = join(dir, "snapshot.generated.ts");
      writeFileSync(file, files.module);
      const generated = await import(file);
      expect(generated.GENERATED_SNAPSHOT_DATE).toBe("2026-08-15");
      expect(generated.GENERATED_SNAPSHOT_SOURCE).toBe("pkg@1.0.0");
      const slices = generated.providerSlices() as Record<string, [number, number]>;
      expect(Object.values(slices).reduce((sum, [, length]) => sum + length, 0)).toBe(files.data.length);
      const decoded = Object.fromEntries(
        Object.entries(slices).map(([id, [offset, length]]) => [
          id,
          JSON.parse(brotliDecompressSync(files.data.subarray(offset, offset + length)).toString("utf8")),
        ]),
      );
      expect(decoded).toEqual(trimmed);
      expect(generated.providerEndpoints().deepseek).toEqual(["https://deepseek.example/v1"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test("the committed snapshot was made from the pinned package (scripts/models-dev/source.json), its two files together", () => {
  const pin = JSON.parse(readFileSync(SOURCE_PATH, "utf8")) as { package: string; version: string; integrity: string };
  expect(GENERATED_SNAPSHOT_SOURCE).toBe(`${pin.package}@${pin.version}`);
  expect(pin.integrity).toMatch(/^sha512-[A-Za-z0-9+/]+=*$/);
  const slices = Object.values(providerSlices()).sort((a, b) => a[0] - b[0]);
  let next = 0;
  for (const [offset, length] of slices) {
    expect(offset).toBe(next);
    next = offset + length;
  }
  expect(next).toBe(readFileSync(DATA_PATH).length);
});
