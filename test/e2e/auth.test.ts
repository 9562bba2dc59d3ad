/**
 * `rienda auth` (docs/cli.md "rienda auth", docs/providers.md "Keys") and
 * the keys of credentials.json reaching the provider: the script forms
 * against a real HOME (the file's mode, order, indent and unknown fields),
 * refusals that never write, the screen and the hidden prompt in a real
 * terminal (tmux), and a run whose config.yaml provider has no api_key
 * sending credentials.json's key on each protocol.
 */
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Instance, waitFor, type RunResult } from "../support/instance.ts";
import { processesWithHome } from "../support/processes.ts";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";
import { PROTOCOLS } from "../support/scenario.ts";
import { hasTmux, Terminal } from "../support/tmux.ts";
import { markedBlock, matchesShown } from "../support/doc-blocks.ts";
import { startCatalogue, type Catalogue } from "../support/models-dev.ts";

setDefaultTimeout(60_000);

const KEY = "sk-test-0123456789abcdef";

/** The built-in modules' models.dev (opencode-go: 3 models, zai-coding-plan: 2), so that no test reads the network. */
let catalogue: Catalogue;
beforeAll(async () => {
  catalogue = await startCatalogue();
});
afterAll(() => catalogue.close());
const MODELS_DEV = () => ({ RIENDA_MODELS_DEV_URL: catalogue.url });

let inst: Instance | undefined;
let server: ProviderServer | undefined;
let term: Terminal | undefined;
afterEach(async () => {
  term?.dispose();
  term = undefined;
  await server?.close();
  server = undefined;
  inst?.dispose();
  inst = undefined;
});

/** config.yaml with `p` (no api_key: its key comes from credentials.json) and `q` (api_key written). */
function setup(baseUrl = "http://127.0.0.1:9/v1", protocol = "openai_chat_completions"): Instance {
  inst = new Instance();
  inst.config(
    [
      "providers:",
      "  p:",
      `    protocol: ${protocol}`,
      `    base_url: ${baseUrl}`,
      "    models:",
      "      m: { id: wire-model }",
      "      n: { id: other-model }",
      "  q:",
      "    preset: openai",
      "    api_key: ${Q_KEY}",
      "    models: { big: {} }",
      "",
    ].join("\n"),
  );
  inst.agent("coder", "---\ndescription: A test agent.\nmodel: p/m\n---\nBe brief.\n");
  return inst;
}

const credentials = () => inst!.riendaPath("credentials.json");
const auth = (args: string[], stdin?: string, env: Record<string, string | undefined> = {}): Promise<RunResult> =>
  inst!.run(["auth", ...args], {
    ...(stdin !== undefined ? { stdinPipe: stdin } : {}),
    env: { Q_KEY: undefined, ...MODELS_DEV(), ...env },
  });

/** Nothing a command printed holds the key. */
function expectNoKey(...results: RunResult[]): void {
  for (const r of results) {
    expect(r.stdout).not.toContain(KEY);
    expect(r.stderr).not.toContain(KEY);
  }
}

describe("rienda auth set, list and rm", () => {
  test("set from a pipe stores the key (one trailing newline dropped) in a 0600 file; list shows where each key comes from, never the key", async () => {
    setup();
    const set = await auth(["set", "p"], `${KEY}\n`);
    expect(set.code).toBe(0);
    expect(set.stdout).toBe("");
    expect(set.stderr).toBe(`stored the key of p in ${credentials()}\n`);
    expect(readFileSync(credentials(), "utf8")).toBe(`{\n  "p": {\n    "api_key": "${KEY}"\n  }\n}\n`);
    expect(statSync(credentials()).mode & 0o777).toBe(0o600);

    const list = await auth(["list"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toBe(
      [
        "PROVIDER         KEY  FROM              MODELS  PROBLEM",
        "p                ✓    credentials.json  2",
        "q                —    config.yaml       1       providers.q.api_key in config.yaml is empty: Q_KEY is not set",
        "opencode-go      —    missing           3",
        "zai-coding-plan  —    missing           2",
        "",
      ].join("\n"),
    );
    expect(list.stderr).toBe("");
    const listed = await auth(["list"], undefined, { Q_KEY: "sk-q" });
    expect(listed.stdout).toContain("q                ✓    config.yaml       1\n");
    expectNoKey(set, list, listed);
  });

  test("list --json: one object with the file, every provider and the keys no provider uses", async () => {
    setup();
    writeFileSync(credentials(), JSON.stringify({ gone: { api_key: "old" }, p: { api_key: KEY } }));
    const r = await auth(["list", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      credentials: credentials(),
      providers: [
        {
          name: "p",
          origin: "config",
          source: inst!.riendaPath("config.yaml"),
          key: "credentials",
          ready: true,
          models: 2,
          problem: null,
        },
        {
          name: "q",
          origin: "config",
          source: inst!.riendaPath("config.yaml"),
          key: "config",
          ready: false,
          models: 1,
          problem: "providers.q.api_key in config.yaml is empty: Q_KEY is not set",
        },
        {
          name: "opencode-go",
          origin: "built-in",
          source: "built-in:opencode-go",
          key: "missing",
          ready: false,
          models: 3,
          problem: null,
        },
        {
          name: "zai-coding-plan",
          origin: "built-in",
          source: "built-in:zai-coding-plan",
          key: "missing",
          ready: false,
          models: 2,
          problem: null,
        },
      ],
      unused_keys: ["gone"],
    });
    expect(r.stderr).toBe("");
    const plain = await auth(["list"]);
    expect(plain.stderr).toBe(
      `${credentials()} also holds keys of providers that do not exist: gone (rienda auth rm NAME removes one)\n`,
    );
    expectNoKey(r, plain);
  });

  test("a hand-written credentials.json keeps its other providers and unknown fields; keys come out sorted, two-space indented", async () => {
    setup();
    writeFileSync(
      credentials(),
      '{"zeta":{"api_key":"z","org":"o"},"p":{"note":"keep me","api_key":"old"},"alpha":{"token":{"a":1}}}',
    );
    expect((await auth(["set", "p"], `${KEY}\r\n`)).code).toBe(0);
    const text = readFileSync(credentials(), "utf8");
    expect(JSON.parse(text)).toEqual({
      alpha: { token: { a: 1 } },
      p: { api_key: KEY, note: "keep me" },
      zeta: { api_key: "z", org: "o" },
    });
    expect(text).toBe(
      [
        "{",
        '  "alpha": {',
        '    "token": {',
        '      "a": 1',
        "    }",
        "  },",
        '  "p": {',
        `    "api_key": "${KEY}",`,
        '    "note": "keep me"',
        "  },",
        '  "zeta": {',
        '    "api_key": "z",',
        '    "org": "o"',
        "  }",
        "}",
        "",
      ].join("\n"),
    );
    expect(statSync(credentials()).mode & 0o777).toBe(0o600);
  });

  test("RIENDA_CREDENTIALS names the file", async () => {
    setup();
    const elsewhere = join(inst!.root, "keys", "creds.json");
    const r = await auth(["set", "p"], KEY, { RIENDA_CREDENTIALS: elsewhere });
    expect(r.stderr).toBe(`stored the key of p in ${elsewhere}\n`);
    expect(JSON.parse(readFileSync(elsewhere, "utf8"))).toEqual({ p: { api_key: KEY } });
    expect(existsSync(credentials())).toBe(false);
  });

  test("an empty key, a key with a line break or a NUL inside, is refused and nothing is written", async () => {
    setup();
    const cases: [string, string][] = [
      ["", "rienda: the key read from stdin is empty; nothing was stored\n"],
      ["\n", "rienda: the key read from stdin is empty; nothing was stored\n"],
      [
        `${KEY}\n${KEY}\n`,
        `rienda: the key read from stdin holds a line break at character ${KEY.length + 1} of ${KEY.length * 2 + 1} (one key, on one line); nothing was stored\n`,
      ],
      ["ab\u0000cd", "rienda: the key read from stdin holds a NUL character at character 3 of 5; nothing was stored\n"],
    ];
    for (const [stdin, message] of cases) {
      const r = await auth(["set", "p"], stdin);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(message);
      expect(existsSync(credentials())).toBe(false);
      expectNoKey(r);
    }
  });

  test("the key is never taken from the command line, nor repeated when given there", async () => {
    setup();
    const r = await auth(["set", "p", KEY], "");
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "rienda: auth set: takes no key on the command line (ps and the shell's history would show it); give it on stdin: rienda auth set NAME < keyfile, or type it at the prompt\n",
    );
    expectNoKey(r);
    expect((await auth(["set", "p", "x", KEY], "")).stderr).toContain('unexpected argument "');
    expect(existsSync(credentials())).toBe(false);
  });

  test("set for a provider whose config.yaml writes api_key stores the key and says the written one is used first", async () => {
    setup();
    const r = await auth(["set", "q"], KEY);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `stored the key of q in ${credentials()}\n` +
        `note: ${inst!.riendaPath("config.yaml")} writes providers.q.api_key, which is used before the stored key; remove it from config.yaml for this one to be used\n`,
    );
  });

  test("rm removes the stored key (the other providers stay); none stored is said, exit 0; a key of a provider that no longer exists can be removed", async () => {
    setup();
    writeFileSync(
      credentials(),
      JSON.stringify({ p: { api_key: KEY }, gone: { api_key: "old" }, q: { api_key: "x" } }),
    );
    const rm = await auth(["rm", "p"]);
    expect([rm.code, rm.stderr]).toEqual([0, `removed the key of p from ${credentials()}\n`]);
    expect(JSON.parse(readFileSync(credentials(), "utf8"))).toEqual({ gone: { api_key: "old" }, q: { api_key: "x" } });
    const again = await auth(["rm", "p"]);
    expect([again.code, again.stderr]).toEqual([0, `no key of p is stored in ${credentials()}: nothing to remove\n`]);
    const stale = await auth(["rm", "gone"]);
    expect([stale.code, stale.stderr]).toEqual([0, `removed the key of gone from ${credentials()}\n`]);
    const written = await auth(["rm", "q"]);
    expect(written.stderr).toBe(
      `removed the key of q from ${credentials()} (its key in ${inst!.riendaPath("config.yaml")}, providers.q.api_key, stays)\n`,
    );
    expect(JSON.parse(readFileSync(credentials(), "utf8"))).toEqual({});
    expect(statSync(credentials()).mode & 0o777).toBe(0o600);
  });

  test("an unknown provider is an error naming the one meant and the known ones; nothing is read or written", async () => {
    setup();
    const config = inst!.riendaPath("config.yaml");
    for (const sub of ["set", "rm"]) {
      const r = await auth([sub, "pp"], KEY);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `rienda: auth ${sub}: unknown provider "pp" (did you mean "p"? providers in ${config}: p, q; provider modules: opencode-go, zai-coding-plan)\n`,
      );
    }
    const far = await auth(["set", "openrouter"], KEY);
    expect(far.stderr).toBe(
      `rienda: auth set: unknown provider "openrouter" (providers in ${config}: p, q; provider modules: opencode-go, zai-coding-plan)\n`,
    );
    expect(existsSync(credentials())).toBe(false);
  });

  test("usage: a missing name, an unknown subcommand, an unknown flag", async () => {
    setup();
    expect((await auth(["set"])).stderr).toBe(
      "rienda: auth set: name the provider whose key to store (the key comes on stdin), e.g. rienda auth set openai (rienda auth list shows the providers)\n",
    );
    const sub = await auth(["lst"]);
    expect([sub.code, sub.stderr]).toEqual([
      1,
      'rienda: auth: unknown subcommand "lst" (did you mean "list"? set, list or rm; see rienda auth --help)\n',
    ]);
    expect((await auth(["list", "--all"])).stderr).toContain("rienda: auth list: unknown option --all");
  });

  test("without a terminal, rienda auth alone refuses and names the script forms", async () => {
    setup();
    const r = await auth([], "");
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "rienda: auth: the key screen needs a terminal; in a script, store a key with rienda auth set NAME (the key on stdin: rienda auth set NAME < keyfile), list them with rienda auth list [--json], remove one with rienda auth rm NAME\n",
    );
  });

  test("a damaged credentials.json is named, and left as it was", async () => {
    setup();
    writeFileSync(credentials(), "{not json");
    for (const args of [["list"], ["set", "p"], ["rm", "p"]]) {
      const r = await auth(args, KEY);
      expect(r.code).toBe(1);
      expect(r.stderr).toStartWith(`rienda: ${credentials()}: is not valid JSON (`);
      expect(readFileSync(credentials(), "utf8")).toBe("{not json");
    }
  });
});

describe("docs/cli.md", () => {
  test("the block cli-auth: set from a file, then list", async () => {
    inst = new Instance();
    inst.config(
      [
        "providers:",
        "  openrouter:",
        "    preset: openrouter",
        "    models: { sonnet: { id: anthropic/claude-sonnet-4 }, qwen: { id: qwen/qwen3-coder } }",
        "  anthropic:",
        "    preset: anthropic",
        "    api_key: ${ANTHROPIC_API_KEY}",
        "    models: { opus: { id: claude-opus-4-1 } }",
        "  local:",
        "    preset: ollama",
        "    models: { llama: {} }",
        "",
      ].join("\n"),
    );
    const keyFile = inst.file("openrouter.key", `${KEY}\n`);
    const env = { ANTHROPIC_API_KEY: undefined, ...MODELS_DEV() };
    const set = await inst.run(["auth", "set", "openrouter"], { stdinFile: readFileSync(keyFile), env });
    const list = await inst.run(["auth", "list"], { env });
    const transcript =
      `$ rienda auth set openrouter < openrouter.key\n${set.stderr}$ rienda auth list\n${list.stdout}${list.stderr}`.replaceAll(
        inst.home,
        "/home/ana",
      );
    const shown = markedBlock("docs/cli.md", "test/e2e/auth.test.ts", "cli-auth");
    // The page shows the built-ins' model counts as "...": they are models.dev's.
    if (!matchesShown(transcript, shown)) expect(transcript).toBe(shown);
  });
});

describe("credentials.json's key reaches the provider", () => {
  for (const protocol of PROTOCOLS) {
    test(`${protocol}: a config.yaml provider without api_key sends the key stored by rienda auth set`, async () => {
      server = await startProviderServer();
      setup(protocol === "anthropic" ? server.url : `${server.url}/v1`, protocol);
      expect((await auth(["set", "p"], `${KEY}\n`)).code).toBe(0);
      server.script({ text: "ok" });
      const r = await inst!.run(["run", "-a", "coder", "-p", "hi"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe("ok\n");
      const headers = server.requests[0]!.headers;
      if (protocol === "anthropic") {
        expect(headers["x-api-key"]).toBe(KEY);
        expect(headers["anthropic-version"]).toBe("2023-06-01");
        expect(headers.authorization).toBeUndefined();
      } else expect(headers.authorization).toBe(`Bearer ${KEY}`);
    });
  }

  test("config.yaml's api_key is sent, not the stored one; without either no key is sent", async () => {
    server = await startProviderServer();
    setup(`${server.url}/v1`);
    inst!.config(
      readFileSync(inst!.riendaPath("config.yaml"), "utf8").replace(
        "    models:\n      m:",
        "    api_key: from-config\n    models:\n      m:",
      ),
    );
    server.script({ text: "one" }, { text: "two" });
    expect((await inst!.run(["run", "-a", "coder", "-p", "hi"])).code).toBe(0);
    expect(server.requests[0]!.headers.authorization).toBe("Bearer from-config");
    writeFileSync(credentials(), JSON.stringify({ p: { api_key: KEY } }));
    expect((await inst!.run(["run", "-a", "coder", "-p", "hi"])).code).toBe(0);
    expect(server.requests[1]!.headers.authorization).toBe("Bearer from-config");
  });

  test("a damaged credentials.json fails a run that needs it, naming the file, before any request", async () => {
    server = await startProviderServer();
    setup(`${server.url}/v1`);
    writeFileSync(credentials(), "[1, 2]");
    const r = await inst!.run(["run", "-a", "coder", "-p", "hi"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${credentials()}: must be a JSON object of providers`);
    expect(server.requests).toHaveLength(0);
  });
});

describe("on a terminal", () => {
  function open(args: string[]): Terminal {
    if (!hasTmux()) throw new Error("this test needs tmux (apt-get install -y tmux)");
    term = Terminal.start(inst!, {
      args: ["auth", ...args],
      width: 100,
      height: 20,
      env: { NO_COLOR: "1", ...MODELS_DEV() },
    });
    return term;
  }

  test("the screen: every provider with ✓ or — and its models; Enter asks the key masked, Enter stores it; Esc leaves", async () => {
    setup();
    const t = open([]);
    // The built-in modules fill in their lines as they answer, each in its own time: wait for both.
    await t.waitFor(
      (screen) => screen.includes("opencode-go      3 models") && screen.includes("zai-coding-plan  2 models"),
    );
    const first = t.screen();
    expect(first).toContain(`rienda auth · keys are stored in ${credentials()}`);
    expect(first).toContain(
      [
        "❯ ✓ p                2 models    no key (optional)",
        "  — q                1 model     providers.q.api_key in config.yaml is empty: Q_KEY is not set",
        "  — opencode-go      3 models    no key",
        "  — zai-coding-plan  2 models    no key",
      ].join("\n"),
    );
    t.keys("Enter");
    await t.waitFor("Key for p: ");
    t.type(KEY);
    await t.waitFor(`Key for p: ${"•".repeat(KEY.length)}`);
    expect(t.history()).not.toContain(KEY);
    t.keys("Enter");
    await t.waitFor(`stored the key of p in ${credentials()}`);
    expect(t.screen()).toContain("❯ ✓ p                2 models    key in credentials.json");
    expect(JSON.parse(readFileSync(credentials(), "utf8"))).toEqual({ p: { api_key: KEY } });
    expect(statSync(credentials()).mode & 0o777).toBe(0o600);
    // Esc leaves a field without storing, then the screen.
    t.keys("Down", "Enter");
    await t.waitFor("Key for q: ");
    expect(t.screen()).toContain("config.yaml writes providers.q.api_key, which is used before a stored key");
    t.type("typed-then-abandoned");
    t.keys("Escape");
    await t.waitFor("nothing stored");
    t.keys("Escape");
    expect(await t.exitCode()).toBe(0);
    expect(t.history()).not.toContain(KEY);
    expect(t.history()).not.toContain("typed-then-abandoned");
    expect(JSON.parse(readFileSync(credentials(), "utf8"))).toEqual({ p: { api_key: KEY } });
  });

  test("SIGTERM ends the screen with 130, giving the terminal back; a key half typed is not stored", async () => {
    setup();
    const t = open([]);
    await t.waitFor("Enter type its key");
    t.keys("Enter");
    await t.waitFor("Key for p: ");
    t.type("half");
    await t.waitFor("Key for p: ••••");
    t.signal("SIGTERM");
    expect(await t.exitCode()).toBe(130);
    expect(existsSync(credentials())).toBe(false);
  });

  test("a pasted key with its newline is stored without it", async () => {
    setup();
    const t = open([]);
    await t.waitFor("Enter type its key");
    t.keys("Enter");
    await t.waitFor("Key for p: ");
    t.paste(`${KEY}\n`);
    await t.waitFor(`Key for p: ${"•".repeat(KEY.length)}▏`);
    t.keys("Enter");
    await t.waitFor("stored the key of p");
    expect(JSON.parse(readFileSync(credentials(), "utf8"))).toEqual({ p: { api_key: KEY } });
    t.keys("q");
    expect(await t.exitCode()).toBe(0);
  });

  test("auth set NAME at a terminal: a prompt on stderr, the key typed without echo", async () => {
    setup();
    const t = open(["set", "p"]);
    await t.waitFor("Key for p (typing is not shown; Enter stores it, Ctrl-C gives up):");
    t.type(KEY);
    t.keys("Enter");
    await t.waitFor(`stored the key of p in ${credentials()}`);
    expect(await t.exitCode()).toBe(0);
    expect(t.history()).not.toContain(KEY);
    expect(JSON.parse(readFileSync(credentials(), "utf8"))).toEqual({ p: { api_key: KEY } });
  });

  test("closing the terminal ends the screen at once (it never lingers, spinning, without one)", async () => {
    setup();
    const t = open([]);
    await t.waitFor("zai-coding-plan  2 models");
    expect(processesWithHome(inst!.home).length).toBeGreaterThan(0);
    t.dispose();
    await waitFor(() => processesWithHome(inst!.home).length === 0, 10_000, "rienda auth to end with its terminal");
  });

  test("auth set NAME at a terminal: Ctrl-C stores nothing, exit 130", async () => {
    setup();
    const t = open(["set", "p"]);
    await t.waitFor("Key for p (typing");
    t.type("half-typed");
    t.keys("C-c");
    await t.waitFor("rienda: interrupted: no key was stored");
    expect(await t.exitCode()).toBe(130);
    expect(existsSync(credentials())).toBe(false);
  });
});
