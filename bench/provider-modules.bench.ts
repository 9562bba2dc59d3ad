// What provider modules cost a run (issue 38): start to the first provider
// request for a model of config.yaml (no module is evaluated, even with
// modules installed), a model of a user provider module (that one module is
// evaluated, in a fresh context), and an agent without a model whose
// session's choice comes from state.json. Each figure alternates with the
// others run by run, so a noisy machine spreads its noise evenly; with
// RIENDA_BASELINE_BINARY set, the config.yaml figure of that binary (built
// before modules existed) is measured in the same rotation.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { existsSync } from "node:fs";
import { startProviderServer } from "../test/support/provider-server.ts";
import { msToFirstRequest } from "./support/first-request.ts";
import { report } from "./support/report.ts";

const root = resolve(import.meta.dir, "..");
const binary = process.env.RIENDA_BINARY ?? join(root, "dist/rienda");
const baseline = process.env.RIENDA_BASELINE_BINARY;
if (!existsSync(binary)) throw new Error(`no binary at ${binary}: run make build`);
const work = mkdtempSync(join(tmpdir(), "rienda-bench-modules-"));
const home = join(work, "home");
const server = await startProviderServer();
const riendaDir = join(home, ".rienda");
mkdirSync(join(riendaDir, "agents"), { recursive: true });
writeFileSync(
  join(riendaDir, "config.yaml"),
  `providers:\n  p:\n    protocol: openai_chat_completions\n    base_url: ${server.url}/v1\n    api_key: ""\n    models:\n      m: {}\n`,
);
// Five user modules installed: only the one a run names is evaluated.
for (const name of ["acme", "beta", "gamma", "delta", "omega"]) {
  mkdirSync(join(riendaDir, "providers", name), { recursive: true });
  writeFileSync(
    join(riendaDir, "providers", name, "index.js"),
    `module.exports = function (ctx) { return { protocol: "openai_chat_completions", base_url: "${server.url}/v1", auth: "none", models: [{ id: "m1", context_window: 128000 }, { id: "m2", context_window: 32000 }] }; };`,
  );
}
writeFileSync(join(riendaDir, "agents", "fixed.md"), "---\ndescription: names its model\nmodel: p/m\n---\nBench.\n");
writeFileSync(join(riendaDir, "agents", "free.md"), "---\ndescription: names no model\n---\nBench.\n");
writeFileSync(join(riendaDir, "state.json"), JSON.stringify({ last_model: "acme/m1" }));
const env = { PATH: process.env.PATH ?? "", HOME: home };

const cases: [string, string, string[]][] = [
  ["config.yaml model, 5 modules installed", binary, ["run", "-a", "fixed", "-p", "hi"]],
  ["a user module's model (-m acme/m1)", binary, ["run", "-a", "fixed", "-m", "acme/m1", "-p", "hi"]],
  ["agent without a model, state.json's last_model", binary, ["run", "-a", "free", "-p", "hi"]],
];
if (baseline) cases.unshift(["config.yaml model, baseline binary", baseline, ["run", "-a", "fixed", "-p", "hi"]]);
const samples = new Map<string, number[]>(cases.map(([name]) => [name, []]));
for (let round = 0; round < 23; round++) {
  for (const [name, bin, args] of cases) {
    const ms = await msToFirstRequest(server, { binary: bin, env, cwd: work }, args);
    if (round >= 3) samples.get(name)!.push(ms);
  }
}
for (const [name] of cases) report(`first request: ${name}`, samples.get(name)!, "ms");
await server.close();
