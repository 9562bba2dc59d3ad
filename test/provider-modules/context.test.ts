/** The ctx a provider module is called with, and how its call ends (go-current.md §3: the ctx a hook gets, its own folder as root). */
import { describe, expect, test } from "bun:test";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { evaluateProviderModule } from "../../src/provider-modules/index.ts";
import { providersFixture, validDeclaration } from "./support.ts";

const fx = providersFixture();

/** A module that logs `expression` as JSON, then declares a valid provider. */
function reporting(name: string, expression: string): void {
  fx.home.module(name, `ctx.log(JSON.stringify(${expression}));\nreturn ${JSON.stringify(validDeclaration())};`);
}

describe("the ctx of a provider module", () => {
  test("is a hook's ctx outside any run: its folder as workdir (commands run there), no session, no agent, config.yaml as data", async () => {
    reporting(
      "acme",
      "{ workdir: ctx.workdir, session: ctx.session, agent: ctx.agent, config: ctx.config, pwd: ctx.system.exec('pwd').stdout.trim() }",
    );
    const config = { compaction: { enabled: false }, config: { acme: { region: "eu" } } };
    const evaluation = await fx.home.evaluate("acme", { configDocument: config });
    expect("provider" in evaluation).toBe(true);
    const folder = join(fx.home.folder, "acme");
    // The command's own output reaches the log first, as it runs.
    expect(fx.home.logs[0]).toBe(folder);
    expect(fx.home.logs.slice(1).map((line) => JSON.parse(line))).toEqual([
      {
        workdir: folder,
        session: { id: "", agentId: "", modelId: "", workdir: folder },
        agent: {
          name: "",
          description: "",
          model: "",
          tools: [],
          hooks: [],
          skills: [],
          agents: [],
          config: {},
          systemPrompt: "",
        },
        config,
        pwd: folder,
      },
    ]);
  });

  test("reads and lists files relative to its own folder", async () => {
    fx.home.write("acme", JSON.stringify({ models: [{ id: "from-file", context_window: 1000 }] }), "models.json");
    fx.home.module(
      "acme",
      `const listed = ctx.file.list(".").map((f) => f.name).sort();
ctx.log(listed.join(","));
return Object.assign(${JSON.stringify(validDeclaration())}, JSON.parse(ctx.file.read("models.json")));`,
    );
    const evaluation = await fx.home.evaluate("acme");
    if (!("provider" in evaluation)) throw new Error(evaluation.problem);
    expect([...evaluation.provider.models.keys()]).toEqual(["from-file"]);
    expect(fx.home.logs).toEqual(["index.js,models.json"]);
  });

  test("ctx.confirm answers false, ctx.notify and console output reach the log, ctx.env reads the environment", async () => {
    process.env.RIENDA_TEST_PROVIDER_REGION = "eu-west";
    try {
      fx.home.module(
        "acme",
        `const yes = ctx.confirm({ title: "Use the beta endpoint?", body: "" });
ctx.notify({ title: "acme", body: "catalogue refreshed" });
console.log("from console");
ctx.log("confirm=" + yes + " region=" + ctx.env.get("RIENDA_TEST_PROVIDER_REGION"));
return ${JSON.stringify(validDeclaration())};`,
      );
      expect("provider" in (await fx.home.evaluate("acme"))).toBe(true);
    } finally {
      delete process.env.RIENDA_TEST_PROVIDER_REGION;
    }
    expect(fx.home.logs).toEqual(["notice: acme: catalogue refreshed", "from console", "confirm=false region=eu-west"]);
  });

  test("each evaluation is a fresh context: nothing one module leaves is seen by the next", async () => {
    fx.home.module("first", `globalThis.leftOver = "first was here"; return ${JSON.stringify(validDeclaration())};`);
    reporting("second", "typeof globalThis.leftOver");
    await fx.home.evaluate("first");
    await fx.home.evaluate("second");
    expect(fx.home.logs).toEqual([JSON.stringify("undefined")]);
  });
});

test("ctx.http.fetch reads at most 32 MiB of a body (the models.dev catalogue is megabytes): a larger one fails the fetch", async () => {
  const size = 32 * 1024 * 1024 + 1;
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(size) });
    response.end(Buffer.alloc(size, 97));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/catalogue`;
  try {
    fx.home.module(
      "acme",
      `try { ctx.http.fetch(${JSON.stringify(url)}); } catch (error) { ctx.log(error.message); }
return ${JSON.stringify(validDeclaration())};`,
    );
    expect("provider" in (await fx.home.evaluate("acme"))).toBe(true);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  expect(fx.home.logs).toEqual([`ctx.http.fetch: GET ${url}: the response body is larger than 32 MiB`]);
});

describe("a module that does not return", () => {
  test("is interrupted by the caller's signal", async () => {
    fx.home.module("acme", "while (true) {}");
    const controller = new AbortController();
    const pending = fx.home.evaluate("acme", { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toEqual({ problem: `provider "acme": interrupted` });
  });

  test("is given up after the time allowed, with a line saying so", async () => {
    fx.home.module("acme", "while (true) {}");
    expect(await fx.home.evaluate("acme", { timeoutMs: 300 })).toEqual({
      problem: `provider "acme": the module did not return within 0.3 s`,
    });
  });
});

test("a caller's own front end answers ctx.confirm", async () => {
  fx.home.module(
    "acme",
    `if (!ctx.confirm({ title: "Declare?", body: "" })) throw new Error("declined"); return ${JSON.stringify(validDeclaration())};`,
  );
  const questions: string[] = [];
  const evaluation = await evaluateProviderModule(fx.home.entry("acme"), {
    runtime: fx.runtime,
    configDocument: {},
    riendaDir: fx.home.riendaDir,
    signal: new AbortController().signal,
    frontEnd: {
      log: () => {},
      output: () => {},
      notify: () => {},
      confirm: async (prompt) => questions.push(prompt.title) > 0,
    },
  });
  expect(["provider" in evaluation, questions]).toEqual([true, ["Declare?"]]);
});
