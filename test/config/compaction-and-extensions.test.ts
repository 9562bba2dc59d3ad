import { describe, expect, test } from "bun:test";
import { DEFAULT_COMPACTION } from "../../src/config/index.ts";
import { MINIMAL } from "./example-config.ts";
import { FILE, linesOf, parse } from "./parse-helpers.ts";

describe("compaction", () => {
  test("defaults apply when the block is absent or empty", () => {
    const defaults = { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 };
    expect(DEFAULT_COMPACTION).toEqual(defaults);
    expect(parse(MINIMAL).compaction).toEqual(defaults);
    expect(parse(`${MINIMAL}compaction: {}\n`).compaction).toEqual(defaults);
    expect(parse(`${MINIMAL}compaction:\n`).compaction).toEqual(defaults);
  });

  test("a partial block keeps the defaults of the keys it omits", () => {
    expect(parse(`${MINIMAL}compaction: { enabled: false }\n`).compaction).toEqual({
      enabled: false,
      reserveTokens: 16384,
      keepRecentTokens: 20000,
    });
  });

  test("token settings are integers of 0 or more", () => {
    expect(parse(`${MINIMAL}compaction: { reserve_tokens: 0, keep_recent_tokens: 0 }\n`).compaction.reserveTokens).toBe(
      0,
    );
    expect(linesOf(`${MINIMAL}compaction: { reserve_tokens: -1 }\n`)).toEqual([
      `${FILE}: compaction.reserve_tokens: must be an integer of 0 or more`,
    ]);
    expect(linesOf(`${MINIMAL}compaction: { keep_recent_tokens: 1.5 }\n`)).toEqual([
      `${FILE}: compaction.keep_recent_tokens: must be an integer of 0 or more`,
    ]);
  });

  test("enabled must be a boolean", () => {
    expect(linesOf(`${MINIMAL}compaction: { enabled: 1 }\n`)).toEqual([
      `${FILE}: compaction.enabled: must be true or false, not a number (1)`,
    ]);
  });

  test("model must name a declared provider/alias", () => {
    expect(parse(`${MINIMAL}compaction: { model: local/m }\n`).compaction.model).toBe("local/m");
    expect(linesOf(`${MINIMAL}compaction: { model: m }\n`)).toEqual([
      `${FILE}: compaction.model: must have the form provider/alias (got "m")`,
    ]);
    // A provider config.yaml does not declare may be a provider module: settled by the run.
    expect(parse(`${MINIMAL}compaction: { model: cloud/m }\n`).compaction.model).toBe("cloud/m");
    expect(linesOf(`${MINIMAL}compaction: { model: local/x }\n`)).toEqual([
      `${FILE}: compaction.model: unknown model "x" in provider "local"`,
    ]);
  });

  test("an unknown compaction key is refused", () => {
    expect(linesOf(`${MINIMAL}compaction: { enable: true }\n`)).toEqual([
      `${FILE}: compaction.enable: unknown key (did you mean "enabled"? known keys: enabled, reserve_tokens, keep_recent_tokens, model)`,
    ]);
  });
});

describe("the config block (extension settings)", () => {
  test("holds settings keyed by extension name, free-form inside", () => {
    const config = parse(
      `${MINIMAL}config:\n  word-count: { min_length: 3, langs: [en, es], nested: { a: 1 } }\n  guard: {}\n`,
    );
    expect(config.extensionConfig).toEqual({
      "word-count": { min_length: 3, langs: ["en", "es"], nested: { a: 1 } },
      guard: {},
    });
  });

  test("absent or empty means no settings", () => {
    expect(parse(MINIMAL).extensionConfig).toEqual({});
    expect(parse(`${MINIMAL}config:\n`).extensionConfig).toEqual({});
  });

  test("must be a mapping of mappings", () => {
    expect(linesOf(`${MINIMAL}config: [a]\n`)).toEqual([
      `${FILE}: config: must be a mapping (key: value pairs), not a list`,
    ]);
    expect(linesOf(`${MINIMAL}config:\n  word-count: 3\n`)).toEqual([
      `${FILE}: config.word-count: must be a mapping of settings for the extension "word-count" (write {} for none), not a number (3)`,
    ]);
    expect(linesOf(`${MINIMAL}config:\n  word-count: text\n`)).toEqual([
      `${FILE}: config.word-count: must be a mapping of settings for the extension "word-count" (write {} for none), not a string ("text")`,
    ]);
  });
});
