/**
 * The built-ins run from inside a compiled binary: Bun embeds their files
 * (`import ... with { type: "file" }`) and its `require` cannot load an
 * embedded .js as CommonJS, so they are copied out to a private folder for
 * the call (built-in-files.ts). A probe entry beside src/'s own folders is
 * compiled with the build's flags and run against a scripted models.dev.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { BUILD_FLAGS } from "../../scripts/release/compile.ts";
import { CatalogueServer, catalogueFragment } from "./catalogue-server.ts";

const ROOT = resolve(import.meta.dir, "../..");
const PROBE = `import { join } from "node:path";
import { createRuntime } from "./runtime/index.ts";
import { evaluateProviderModule, listProviderModules } from "./provider-modules/index.ts";
const runtime = createRuntime();
for (const entry of listProviderModules({ env: process.env, home: process.env.HOME ?? "/" }).modules) {
  const ev = await evaluateProviderModule(entry, { runtime, configDocument: {}, riendaDir: join(process.env.HOME ?? "/", ".rienda"), signal: new AbortController().signal });
  console.log(entry.name + " " + ("provider" in ev ? [ev.provider.origin, ev.provider.baseUrl, ...ev.provider.models.keys()].join(" ") : ev.problem));
}
await runtime.close();
`;

let work: string;
let server: CatalogueServer;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "rienda-pm-compiled-"));
  server = await new CatalogueServer().start();
  server.serve(catalogueFragment());
});
afterAll(async () => {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
});

/** Runs `command` without blocking this process (the scripted models.dev lives in it). */
function run(
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: work, env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

test("a compiled binary evaluates the built-in modules it embeds, leaving no copy behind", async () => {
  cpSync(join(ROOT, "src"), join(work, "src"), { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(work, "node_modules"));
  writeFileSync(join(work, "src", "probe.ts"), PROBE);
  const workers = ["invoke-worker.ts", "realm-helper-worker.ts"].map((name) => join(work, "src/runtime/context", name));
  // The models.dev snapshot's data is embedded as a file, as scripts/release/compile.ts does.
  const snapshot = join(work, "src/models-dev/models-dev-snapshot.bin");
  const built = await run(
    process.execPath,
    ["build", ...BUILD_FLAGS, join(work, "src/probe.ts"), ...workers, snapshot, "--outfile", join(work, "probe")],
    {},
  );
  expect(built.stderr).not.toContain("error");
  expect(built.code).toBe(0);
  const copies = () =>
    readdirSync(tmpdir())
      .filter((name) => name.startsWith("rienda-provider-"))
      .sort();
  const before = copies();
  const probed = await run(join(work, "probe"), [], { HOME: join(work, "home"), RIENDA_MODELS_DEV_URL: server.url });
  expect(probed.stderr).toBe("");
  expect(probed.stdout).toBe(
    [
      "opencode-go built-in https://opencode.ai/zen/go/v1 glm-5.2 gpt-oss-120b kimi-k2.6 minimax-m3",
      "zai-coding-plan built-in https://api.z.ai/api/coding/paas/v4 glm-4.5-air glm-4.7",
      "",
    ].join("\n"),
  );
  expect(probed.code).toBe(0);
  expect(copies()).toEqual(before);
}, 120_000);
