import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../../src/config/index.ts";
import { CONTRACT_EXAMPLE, MINIMAL } from "./example-config.ts";
import { errorOf, FILE, linesOf, parse } from "./parse-helpers.ts";

const root = mkdtempSync(join(tmpdir(), "rienda-config-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function homeWith(config?: string): string {
  const home = mkdtempSync(join(root, "home-"));
  mkdirSync(join(home, ".rienda"));
  if (config !== undefined) writeFileSync(join(home, ".rienda", "config.yaml"), config);
  return home;
}

describe("loadConfig: finding and reading the file", () => {
  test("loads ~/.rienda/config.yaml of the given home", () => {
    const home = homeWith(MINIMAL);
    const config = loadConfig({ env: {}, home });
    expect(config.path).toBe(join(home, ".rienda", "config.yaml"));
    expect(config.source).toBe("home");
    expect(config.modelRefs()).toEqual(["local/m"]);
  });

  test("loads the file named by RIENDA_CONFIG, and --config before it", () => {
    const home = homeWith(MINIMAL);
    const viaEnv = join(home, "env.yaml");
    const viaFlag = join(home, "flag.yaml");
    writeFileSync(viaEnv, MINIMAL.replace("m: {}", "from-env: {}"));
    writeFileSync(viaFlag, MINIMAL.replace("m: {}", "from-flag: {}"));
    expect(loadConfig({ env: { RIENDA_CONFIG: viaEnv }, home }).modelRefs()).toEqual(["local/from-env"]);
    expect(loadConfig({ flag: viaFlag, env: { RIENDA_CONFIG: viaEnv }, home }).modelRefs()).toEqual([
      "local/from-flag",
    ]);
  });

  test("a missing home config is an empty configuration (go-current.md: config.yaml is optional)", () => {
    const home = homeWith();
    const config = loadConfig({ env: {}, home });
    expect(config.present).toBe(false);
    expect(config.path).toBe(join(home, ".rienda", "config.yaml"));
    expect(config.providers.size).toBe(0);
    expect(config.document).toEqual({});
    expect(config.compaction.enabled).toBe(true);
  });

  test("a missing file named by --config says where it looked and how to create one", () => {
    const home = homeWith();
    const file = join(home, "elsewhere.yaml");
    try {
      loadConfig({ env: {}, home, flag: file });
      throw new Error("not refused");
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).code).toBe("config");
      expect((error as Error).message).toStartWith(`${file}: no configuration file here (given with --config).`);
      expect((error as Error).message).toContain('Run "rienda init"');
      expect((error as Error).message).toContain("docs/config.md");
    }
  });

  test("a missing --config or RIENDA_CONFIG file says which setting named it", () => {
    const home = homeWith(MINIMAL);
    expect(() => loadConfig({ flag: join(home, "nope.yaml"), env: {}, home })).toThrow("(given with --config)");
    expect(() => loadConfig({ env: { RIENDA_CONFIG: join(home, "nope.yaml") }, home })).toThrow(
      "(given by RIENDA_CONFIG)",
    );
  });

  test("a directory in place of the file is named as such", () => {
    const home = homeWith();
    mkdirSync(join(home, ".rienda", "config.yaml"));
    expect(() => loadConfig({ env: {}, home })).toThrow(
      `${join(home, ".rienda", "config.yaml")}: is a directory, not a configuration file`,
    );
  });
});

describe("parseConfig: the document as a whole", () => {
  test("the contract's example file loads unchanged", () => {
    const config = parse(CONTRACT_EXAMPLE, { OPENAI_API_KEY: "sk-test" });
    expect(config.modelRefs()).toEqual(["local/llama", "openai/gpt-4o"]);
    expect(config.compaction).toEqual({
      enabled: true,
      reserveTokens: 16384,
      keepRecentTokens: 20000,
      model: "local/llama",
    });
    expect(config.extensionConfig).toEqual({ "word-count": { min_length: 3 } });
    expect(config.unsetVariables).toEqual([]);
  });

  test("an empty file is an error naming the file (contract §2), saying the file is optional", () => {
    for (const text of ["", "\n\n", "# nothing yet\n", "---\n", "\uFEFF"]) {
      const message = errorOf(text).message;
      expect(message).toStartWith(`${FILE}: the file is empty;`);
      expect(message).toContain("rienda init");
      expect(message).toContain("config.yaml is optional");
    }
  });

  test("several documents are refused, naming the line where the second starts", () => {
    expect(linesOf(`${MINIMAL}---\ncompaction: {}\n`)).toEqual([
      `${FILE}: line 6: a second YAML document starts here; the file must hold exactly one`,
    ]);
  });

  test("a trailing document marker with nothing after it is not a second document", () => {
    expect(parse(`---\n${MINIMAL}---\n`).modelRefs()).toEqual(["local/m"]);
  });

  test("YAML syntax errors give line and column", () => {
    const [line] = linesOf("providers:\n  local:\n    models: [a, b\n  other: 1\n");
    expect(line).toStartWith(`${FILE}: line 4, column 3: `);
  });

  test("a duplicate key is a syntax error naming the key and its line", () => {
    expect(linesOf(`${MINIMAL}    protocol: anthropic\n`)).toEqual([
      `${FILE}: line 6, column 5: duplicate key "protocol" (a key may appear once per mapping)`,
    ]);
  });

  test("tabs used as indentation are named", () => {
    expect(linesOf("providers:\n\tlocal: {}\n")[0]).toBe(
      `${FILE}: line 2, column 1: tabs are not allowed as indentation; use spaces`,
    );
  });

  test("a top level that is not a mapping is refused", () => {
    expect(linesOf("- providers\n")).toEqual([
      `${FILE}: must be a mapping of settings (providers, compaction, config, ...) at the top, not a list`,
    ]);
    expect(linesOf("hello\n")).toEqual([
      `${FILE}: must be a mapping of settings (providers, compaction, config, ...) at the top, not a string ("hello")`,
    ]);
  });

  test("an unknown top-level key is refused with the known keys and a suggestion", () => {
    expect(linesOf(`${MINIMAL}provider: {}\n`)).toEqual([
      `${FILE}: provider: unknown key (did you mean "providers"? known keys: providers, compaction, subagents, limits, config, mcp_servers, shell, sandbox, permissions)`,
    ]);
  });

  test("a missing providers block declares no provider (go-current.md); an empty or malformed one is refused", () => {
    for (const text of ["compaction: {}\n", "config: { word-count: { min: 3 } }\n"])
      expect(parse(text).providers.size).toBe(0);
    const refused = `${FILE}: providers: at least one provider is required when the block is written (remove it to use provider modules only)`;
    expect(linesOf("providers: {}\n")).toEqual([refused]);
    expect(linesOf("providers:\n")).toEqual([refused]);
    expect(linesOf("providers: [a]\n")).toEqual([
      `${FILE}: providers: must be a mapping (key: value pairs), not a list`,
    ]);
  });

  test("every problem of the file is reported, one line each, in file order", () => {
    const text = `providers:
  a:
    protocol: nope
    base_url: http://x
  b:
    preset: openai
    models:
      m: { temperature: 3, top_p: -1 }
extra: 1
`;
    expect(linesOf(text)).toEqual([
      `${FILE}: providers.a.protocol: unknown protocol "nope" (known protocols: openai_chat_completions, openai_responses, anthropic, replay)`,
      `${FILE}: providers.b.models.m.temperature: must be between 0 and 2`,
      `${FILE}: providers.b.models.m.top_p: must be between 0 and 1`,
      `${FILE}: extra: unknown key (known keys: providers, compaction, subagents, limits, config, mcp_servers, shell, sandbox, permissions)`,
    ]);
    expect(errorOf(text).problems.map((p) => [p.path, p.line])).toEqual([
      ["providers.a.protocol", 3],
      ["providers.b.models.m.temperature", 8],
      ["providers.b.models.m.top_p", 8],
      ["extra", 9],
    ]);
  });

  test("a UTF-8 byte order mark at the start is ignored", () => {
    expect(parse(`\uFEFF${MINIMAL}`).modelRefs()).toEqual(["local/m"]);
  });

  test("an alias bomb is refused instead of exhausting memory", () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 0; i < 8; i++) {
      const prev = String.fromCharCode(97 + i);
      const next = String.fromCharCode(98 + i);
      lines.push(
        `${next}: &${next} [*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev}]`,
      );
    }
    expect(errorOf(`${MINIMAL}${lines.join("\n")}\n`).message).toStartWith(
      `${FILE}: cannot be read: Excessive alias count`,
    );
  });
});

describe("document and extensionConfig", () => {
  test("document is the whole file as written, without defaults filled in", () => {
    const config = parse(MINIMAL);
    expect(config.document).toEqual({
      providers: {
        local: { protocol: "openai_chat_completions", base_url: "http://127.0.0.1:8080/v1", models: { m: {} } },
      },
    });
  });

  test("every read of document is a fresh deep copy", () => {
    const config = parse(CONTRACT_EXAMPLE, { OPENAI_API_KEY: "k" });
    const first = config.document;
    (first.config as Record<string, Record<string, unknown>>)["word-count"]!.min_length = 99;
    first.providers = {};
    expect(config.document.config).toEqual({ "word-count": { min_length: 3 } });
    expect(Object.keys(config.document.providers as object)).toEqual(["local", "openai"]);
  });

  test("every read of extensionConfig is a fresh deep copy", () => {
    const config = parse(CONTRACT_EXAMPLE, { OPENAI_API_KEY: "k" });
    config.extensionConfig["word-count"]!.min_length = 0;
    expect(config.extensionConfig["word-count"]).toEqual({ min_length: 3 });
  });

  test("document is JSON data (it is copied into every ctx)", () => {
    const config = parse(CONTRACT_EXAMPLE, { OPENAI_API_KEY: "k" });
    expect(JSON.parse(JSON.stringify(config.document))).toEqual(config.document);
  });

  test("a key named __proto__ stays an ordinary key", () => {
    const config = parse(`${MINIMAL}config:\n  __proto__: { polluted: true }\n`);
    expect(Object.keys(config.extensionConfig)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(config.extensionConfig)).toBe(Object.prototype);
  });
});

describe("loadConfig: files that exist but cannot be read", () => {
  test("a symbolic link loop is reported with the file, not thrown raw", () => {
    const home = homeWith();
    const file = join(home, ".rienda", "config.yaml");
    symlinkSync(file, file);
    let error: unknown;
    try {
      loadConfig({ env: {}, home });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toStartWith(`${file}: cannot be read: `);
  });

  test("a config path below a regular file reads as missing", () => {
    const home = homeWith(MINIMAL);
    expect(() => loadConfig({ flag: join(home, ".rienda", "config.yaml", "x.yaml"), env: {}, home })).toThrow(
      "no configuration file here (given with --config)",
    );
  });
});

describe("parseConfig: empty names", () => {
  test("an empty provider name is refused", () => {
    expect(linesOf('providers:\n  "": { preset: openai }\n')).toEqual([
      `${FILE}: providers."": a provider name must not be empty`,
    ]);
  });

  test("an empty model alias is refused", () => {
    expect(linesOf('providers:\n  p: { preset: openai, models: { "": {} } }\n')).toEqual([
      `${FILE}: providers.p.models."": a model alias must not be empty`,
    ]);
  });
});
