import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ResolvedModel } from "../../src/providers/index.ts";
import { readState, recordPick, statePath, thinkingLevels, withThinking } from "../../src/roster/index.ts";

const base: ResolvedModel = {
  ref: "acme/x",
  provider: "acme",
  alias: "x",
  wireId: "x",
  protocol: "anthropic",
  baseUrl: "http://h",
  apiKey: "",
  headers: {},
};
const moduleModel: ResolvedModel = {
  ...base,
  reasoning: true,
  thinkingModes: [
    { level: "low", maxTokens: 0 },
    { level: "deep", maxTokens: 4096 },
  ],
};

describe("thinking levels", () => {
  test("a module's model offers off and its declared levels; one that does not reason offers off only; a config.yaml model the config levels", () => {
    expect(thinkingLevels(moduleModel)).toEqual(["off", "low", "deep"]);
    expect(thinkingLevels({ ...moduleModel, reasoning: false })).toEqual(["off"]);
    expect(thinkingLevels(base)).toEqual(["off", "minimal", "low", "medium", "high"]);
  });

  test("a level puts its name and its budget (when above 0) on the model; off or none takes every thinking setting away", () => {
    expect(withThinking(moduleModel, "deep")).toMatchObject({ thinkingLevel: "deep", thinkingMaxTokens: 4096 });
    expect(withThinking(moduleModel, "low").thinkingMaxTokens).toBeUndefined();
    const configured = { ...base, thinkingLevel: "high", thinkingMaxTokens: 2000 };
    for (const off of ["off", "none"]) {
      const model = withThinking(configured, off);
      expect(model.thinkingLevel).toBeUndefined();
      expect(model.thinkingMaxTokens).toBeUndefined();
    }
    expect(withThinking(configured, "low")).toMatchObject({ thinkingLevel: "low", thinkingMaxTokens: 2000 });
  });

  test("a level the model does not offer is refused, listing its levels", () => {
    expect(() => withThinking(moduleModel, "high")).toThrow(
      '--thinking high: acme/x has no thinking level "high" (its levels: off, low, deep)',
    );
  });
});

describe("state.json", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "rienda-state-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test("RIENDA_STATE moves it; a missing or damaged file remembers nothing", () => {
    expect(statePath({ RIENDA_STATE: "/x/s.json" }, "/h")).toBe("/x/s.json");
    expect(statePath({}, "/h")).toBe("/h/.rienda/state.json");
    expect(readState(join(dir, "none.json"))).toEqual({ lastThinking: {} });
    writeFileSync(join(dir, "bad.json"), "{oops");
    expect(readState(join(dir, "bad.json"))).toEqual({ lastThinking: {} });
  });

  test("a pick keeps every other field, sorted, 0600; a damaged file is left as it is", () => {
    const path = join(dir, "state.json");
    writeFileSync(path, JSON.stringify({ zeta: 1, last_thinking: { "a/b": "low" }, last_model: "a/b" }));
    recordPick(path, { model: "c/d", thinking: "high" });
    expect(readFileSync(path, "utf8")).toBe(
      '{\n  "last_model": "c/d",\n  "last_thinking": {\n    "a/b": "low",\n    "c/d": "high"\n  },\n  "zeta": 1\n}\n',
    );
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readState(path)).toEqual({ lastModel: "c/d", lastThinking: { "a/b": "low", "c/d": "high" } });
    writeFileSync(path, "[not an object");
    expect(() => recordPick(path, { model: "c/d" })).toThrow("is not a JSON object, so the pick was not recorded");
    expect(readFileSync(path, "utf8")).toBe("[not an object");
  });
});
