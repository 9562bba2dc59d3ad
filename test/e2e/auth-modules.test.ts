/**
 * Keys of provider modules (go-current.md §3-§4; docs/providers.md "Keys",
 * docs/cli.md "rienda auth", docs/doctor.md): `rienda auth` and `rienda
 * doctor` over modules of ~/.rienda/providers and the built-ins (their
 * models.dev catalogue served by test/support/models-dev.ts: opencode-go
 * with 3 models, zai-coding-plan with 2), a module with `auth: api_key` and no key refused
 * before any request, and its key sent once stored.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { Instance, type RunResult } from "../support/instance.ts";
import { startCatalogue, type Catalogue } from "../support/models-dev.ts";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";
import { hasTmux, Terminal } from "../support/tmux.ts";

setDefaultTimeout(60_000);

const KEY = "sk-module-0123456789";

let inst: Instance | undefined;
let server: ProviderServer | undefined;
let catalogue: Catalogue | undefined;
let term: Terminal | undefined;
afterEach(async () => {
  term?.dispose();
  term = undefined;
  await server?.close();
  server = undefined;
  await catalogue?.close();
  catalogue = undefined;
  inst?.dispose();
  inst = undefined;
});

/** A module declaring `acme` (auth left out: api_key) at `baseUrl`, with two models. */
function acmeModule(baseUrl: string, protocol = "openai_chat_completions"): string {
  return `module.exports = function () {
  return { protocol: "${protocol}", base_url: "${baseUrl}", models: [{ id: "big", context_window: 100000 }, { id: "small", context_window: 32000 }] };
};
`;
}

const FREE = `module.exports = function () {
  return { protocol: "openai_chat_completions", base_url: "http://127.0.0.1:9/v1", auth: "none", models: [{ id: "tiny", context_window: 4096 }] };
};
`;
const BROKEN = `module.exports = function () { return { protocol: "openai_chat_completions", models: [] }; };\n`;

/** HOME with the modules acme, free and broken, no config.yaml, and the catalogue server. */
async function setup(acmeBaseUrl = "http://127.0.0.1:9/v1", protocol?: string): Promise<Instance> {
  catalogue = await startCatalogue();
  inst = new Instance();
  inst.write(inst.riendaPath("providers/acme/index.js"), acmeModule(acmeBaseUrl, protocol));
  inst.write(inst.riendaPath("providers/free/index.js"), FREE);
  inst.write(inst.riendaPath("providers/broken/index.js"), BROKEN);
  inst.agent("coder", "---\ndescription: A test agent.\nmodel: acme/big\n---\nBe brief.\n");
  return inst;
}

const env = () => ({ RIENDA_MODELS_DEV_URL: catalogue!.url });
const credentials = () => inst!.riendaPath("credentials.json");
const rienda = (args: string[], stdin?: string): Promise<RunResult> =>
  inst!.run(args, { ...(stdin !== undefined ? { stdinPipe: stdin } : {}), env: env() });

describe("rienda auth over provider modules", () => {
  test("list: every module with ✓/—/!, where its key comes from and its models; a module that fails is named on stderr, exit 1", async () => {
    await setup();
    const r = await rienda(["auth", "list"]);
    expect(r.stdout).toBe(
      [
        "PROVIDER         KEY  FROM        MODELS  PROBLEM",
        "acme             —    missing     2",
        'broken           !    -           -       provider "broken": base_url is required',
        "free             ✓    not needed  1",
        "opencode-go      —    missing     3",
        "zai-coding-plan  —    missing     2",
        "",
      ].join("\n"),
    );
    expect(r.stderr).toBe('rienda: provider "broken": base_url is required\n');
    expect(r.code).toBe(1);
    expect((await rienda(["auth", "set", "acme"], `${KEY}\n`)).code).toBe(0);
    const after = await rienda(["auth", "list", "--json"]);
    const providers = (
      JSON.parse(after.stdout) as { providers: { name: string; origin: string; key: string | null; ready: boolean }[] }
    ).providers;
    expect(providers.map((p) => [p.name, p.origin, p.key, p.ready])).toEqual([
      ["acme", "module", "credentials", true],
      ["broken", "module", null, false],
      ["free", "module", "not needed", true],
      ["opencode-go", "built-in", "missing", false],
      ["zai-coding-plan", "built-in", "missing", false],
    ]);
    expect(after.stdout).not.toContain(KEY);
  });

  test("set for a module declaring auth none is refused before reading stdin; set for a built-in stores its key", async () => {
    await setup();
    const free = await rienda(["auth", "set", "free"], KEY);
    expect(free.code).toBe(1);
    expect(free.stderr).toBe(
      `rienda: auth set: provider free needs no key (its module ${inst!.riendaPath("providers/free/index.js")} declares auth: none); nothing was stored\n`,
    );
    expect(existsSync(credentials())).toBe(false);
    expect((await rienda(["auth", "set", "zai-coding-plan"], KEY)).stderr).toBe(
      `stored the key of zai-coding-plan in ${credentials()}\n`,
    );
    expect(JSON.parse(readFileSync(credentials(), "utf8"))).toEqual({ "zai-coding-plan": { api_key: KEY } });
  });

  test("an unknown provider names the modules too", async () => {
    await setup();
    const r = await rienda(["auth", "set", "acm"], KEY);
    expect(r.stderr).toBe(
      `rienda: auth set: unknown provider "acm" (did you mean "acme"? provider modules: acme, broken, free, opencode-go, zai-coding-plan; there is no ${inst!.riendaPath("config.yaml")}: "rienda init" writes a starter one)\n`,
    );
  });
});

describe("a module's key on the wire", () => {
  test("auth api_key and no key: the run fails before any request, naming rienda auth; once stored, the key is sent as Bearer", async () => {
    server = await startProviderServer();
    await setup(`${server.url}/v1`);
    const refused = await rienda(["run", "-a", "coder", "-p", "hi"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("rienda: provider acme is not authenticated; run rienda auth\n");
    expect(server.requests).toHaveLength(0);
    expect((await rienda(["auth", "set", "acme"], `${KEY}\n`)).code).toBe(0);
    server.script({ text: "ok" });
    const r = await rienda(["run", "-a", "coder", "-p", "hi"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("ok\n");
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  test("an anthropic module: the stored key as x-api-key with anthropic-version", async () => {
    server = await startProviderServer();
    await setup(server.url, "anthropic");
    expect((await rienda(["auth", "set", "acme"], KEY)).code).toBe(0);
    server.script({ text: "ok" });
    expect((await rienda(["run", "-a", "coder", "-p", "hi"])).code).toBe(0);
    const headers = server.requests[0]!.headers;
    expect([headers["x-api-key"], headers["anthropic-version"], headers.authorization]).toEqual([
      KEY,
      "2023-06-01",
      undefined,
    ]);
  });

  test("a module with auth none sends no key, even when one is stored by hand", async () => {
    server = await startProviderServer();
    await setup();
    inst!.write(inst!.riendaPath("providers/free/index.js"), FREE.replace("http://127.0.0.1:9/v1", `${server.url}/v1`));
    inst!.write(credentials(), JSON.stringify({ free: { api_key: KEY } }));
    server.script({ text: "ok" });
    expect((await rienda(["run", "-a", "coder", "-m", "free/tiny", "-p", "hi"])).code).toBe(0);
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });
});

describe("rienda doctor over provider modules", () => {
  test("each module with its key and models; the module that fails is a problem; an agent on a module without a key is a problem naming rienda auth", async () => {
    await setup();
    const r = await rienda(["doctor"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toStartWith(
      [
        `config        ${inst!.riendaPath("config.yaml")} (none: it is optional)`,
        "providers     acme (module): no key (rienda auth), 2 models",
        "              broken (module): does not load",
        "              free (module): needs no key, 1 model",
        "              opencode-go (built-in): no key (rienda auth), 3 models",
        "              zai-coding-plan (built-in): no key (rienda auth), 2 models",
        "agents        coder",
      ].join("\n"),
    );
    const broken = inst!.riendaPath("providers/broken/index.js");
    expect(r.stdout).toContain(`problem: ${broken}: provider "broken": base_url is required\n  fix: fix ${broken}`);
    expect(r.stdout).toContain(
      `problem: ${credentials()}: provider acme is not authenticated, and agent "coder" (acme/big) needs it\n  fix: store its key: rienda auth set acme < keyfile (or rienda auth, on a terminal)\n`,
    );
    expect(r.stdout.trimEnd().split("\n").at(-1)).toBe("2 problems, 0 warnings");
    await rienda(["auth", "set", "acme"], KEY);
    const after = await rienda(["doctor"]);
    expect(after.stdout).toContain("providers     acme (module): key in credentials.json, 2 models\n");
    expect(after.stdout).not.toContain("not authenticated");
    expect(after.stdout).not.toContain(KEY);
  });

  test("an agent's model a module does not offer, or of a module that fails", async () => {
    await setup();
    inst!.agent("coder", "---\ndescription: d\nmodel: acme/huge\n---\n");
    inst!.agent("other", "---\ndescription: d\nmodel: broken/x\n---\n");
    const r = await rienda(["doctor"]);
    expect(r.stdout).toContain(
      `problem: ${inst!.riendaPath("agents/coder.md")}: model: unknown model "huge" in provider "acme" (models: big, small)\n`,
    );
    expect(r.stdout).toContain(
      `problem: ${inst!.riendaPath("agents/other.md")}: model: provider "broken" does not load (${inst!.riendaPath("providers/broken/index.js")}, see its own finding)\n`,
    );
  });

  test("a module hidden by config.yaml's provider of its name is a warning", async () => {
    await setup();
    inst!.config(
      "providers:\n  acme:\n    protocol: openai_chat_completions\n    base_url: http://127.0.0.1:9/v1\n    models: { big: {} }\n",
    );
    const { warnings } = JSON.parse((await rienda(["doctor", "--json"])).stdout) as {
      warnings: { check: string; file: string; message: string }[];
    };
    expect(warnings).toContainEqual(
      expect.objectContaining({
        check: "provider",
        file: inst!.riendaPath("providers/acme/index.js"),
        message: `hidden by providers.acme in ${inst!.riendaPath("config.yaml")}: runs on acme/... use config.yaml's provider`,
      }),
    );
  });
});

describe("the screen over provider modules", () => {
  test("a module with auth none needs no key: Enter says so; a module's key is typed masked and stored", async () => {
    if (!hasTmux()) throw new Error("this test needs tmux (apt-get install -y tmux)");
    await setup();
    term = Terminal.start(inst!, { args: ["auth"], width: 110, height: 24, env: { NO_COLOR: "1", ...env() } });
    const t = term;
    await t.waitFor("zai-coding-plan  2 models");
    const screen = t.screen();
    expect(screen).toContain("❯ — acme             2 models    no key");
    expect(screen).toContain('  ! broken           -           provider "broken": base_url is required');
    expect(screen).toContain("  ✓ free             1 model     needs no key");
    t.keys("Down", "Down", "Enter");
    await t.waitFor("free needs no key (its module declares auth: none)");
    expect(t.screen()).not.toContain("Key for free");
    t.keys("Up", "Up", "Enter");
    await t.waitFor("Key for acme: ");
    t.type(KEY);
    t.keys("Enter");
    await t.waitFor("stored the key of acme");
    expect(t.screen()).toContain("❯ ✓ acme             2 models    key in credentials.json");
    t.keys("Escape");
    expect(await t.exitCode()).toBe(0);
    expect(t.history()).not.toContain(KEY);
    expect(JSON.parse(readFileSync(credentials(), "utf8"))).toEqual({ acme: { api_key: KEY } });
  });

  test("what a module prints is shown inside the screen, not over it", async () => {
    if (!hasTmux()) throw new Error("this test needs tmux (apt-get install -y tmux)");
    await setup();
    inst!.write(
      inst!.riendaPath("providers/chatty/index.js"),
      FREE.replace("return {", 'ctx.log("chatty: hello from the module"); return {').replace(
        "function ()",
        "function (ctx)",
      ),
    );
    term = Terminal.start(inst!, { args: ["auth"], width: 110, height: 24, env: { NO_COLOR: "1", ...env() } });
    await term.waitFor("modules said:");
    expect(term.screen()).toContain("modules said:\n  chatty: hello from the module");
    expect(term.screen()).toStartWith("rienda auth · keys are stored in");
    term.keys("Escape");
    expect(await term.exitCode()).toBe(0);
  });
});
