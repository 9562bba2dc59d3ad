/** The shipped snapshot as the rest of Rienda reads it: its date, its providers, raw entries, fresh copies. */
import { describe, expect, test } from "bun:test";
import { REQUIRED_PROVIDERS } from "../../scripts/models-dev/extract-catalogue.ts";
import { SNAPSHOT_DATE, SNAPSHOT_NAME, snapshotProvider, snapshotProviderIds } from "../../src/models-dev/index.ts";

type Entry = Record<string, unknown>;
const modelsOf = (provider: Entry | undefined) => (provider?.models ?? {}) as Record<string, Entry>;

describe("the snapshot", () => {
  test("has a date, and messages name it with that date", () => {
    expect(SNAPSHOT_DATE).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(SNAPSHOT_NAME).toBe(`the models.dev snapshot of ${SNAPSHOT_DATE}`);
  });

  test("lists its providers sorted, the built-in modules' and the presets' among them", () => {
    const ids = snapshotProviderIds();
    expect(ids).toEqual([...ids].sort());
    for (const id of REQUIRED_PROVIDERS) expect(ids).toContain(id);
    expect(ids.length).toBeGreaterThan(100);
  });

  test("a provider is its api.json entry: id, name, api, npm, env and models with their figures", () => {
    const provider = snapshotProvider("zai-coding-plan");
    expect(provider).toMatchObject({
      id: "zai-coding-plan",
      name: expect.any(String),
      api: expect.stringMatching(/^https:\/\//),
      npm: "@ai-sdk/openai-compatible",
      env: expect.any(Array),
    });
    const models = Object.values(modelsOf(provider));
    expect(models.length).toBeGreaterThan(0);
    for (const model of models) {
      expect(model).toMatchObject({
        id: expect.any(String),
        name: expect.any(String),
        limit: { context: expect.any(Number), output: expect.any(Number) },
      });
      // Only the fields Rienda reads are shipped.
      for (const dropped of ["description", "family", "last_updated", "knowledge", "open_weights", "experimental"])
        expect(model).not.toHaveProperty(dropped);
    }
  });

  test("what the built-in modules read is there: status, reasoning, the effort option, a model's own adapter", () => {
    const all = snapshotProviderIds().flatMap((id) => Object.values(modelsOf(snapshotProvider(id))));
    expect(all.some((m) => m.status === "deprecated")).toBe(true);
    expect(all.some((m) => m.status === "beta")).toBe(true);
    const options = all.flatMap((m) => (Array.isArray(m.reasoning_options) ? m.reasoning_options : [])) as Entry[];
    expect(options).toContainEqual({ type: "effort", values: expect.arrayContaining(["low", "high"]) });
    expect(all.some((m) => typeof (m.provider as Entry | undefined)?.npm === "string")).toBe(true);
    const goModels = Object.values(modelsOf(snapshotProvider("opencode-go")));
    expect(goModels.length).toBeGreaterThan(5);
    expect(goModels.every((m) => typeof m.reasoning === "boolean")).toBe(true);
  });

  test("each call returns a fresh copy: changing one changes nothing for the next caller", () => {
    const first = snapshotProvider("openai")!;
    first.name = "changed";
    modelsOf(first)["gpt-4o"]!.limit = { context: 1 };
    const second = snapshotProvider("openai")!;
    expect(second.name).not.toBe("changed");
    expect(modelsOf(second)["gpt-4o"]!.limit).not.toEqual({ context: 1 });
  });

  test("an unknown id, or a name every object has, is undefined", () => {
    for (const id of ["no-such-provider", "__proto__", "constructor", "toString", ""])
      expect(snapshotProvider(id)).toBeUndefined();
  });
});
