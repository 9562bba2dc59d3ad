/**
 * The CI recipes of docs/ci.md, run as CI would run them: the release
 * download (scripts/ci/fetch-release.sh, over real HTTP on 127.0.0.1), the
 * GitHub composite action's shell steps (.github/actions/rienda), the
 * Kubernetes Indexed Job's sharding (scripts/ci/shard.sh with the manifest's
 * own arguments), and a fleet of runs under `xargs -P` against a provider
 * that rate-limits a third of them.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { parse } from "yaml";
import { BINARY } from "../support/instance.ts";
import { scenario, type Scenario } from "../support/scenario.ts";
import { messageEntries, sessionFiles } from "../support/session-reader.ts";

setDefaultTimeout(120_000);

const ROOT = resolve(import.meta.dir, "../..");
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

let s: Scenario | undefined;
let stopServer: (() => void) | undefined;
afterEach(async () => {
  stopServer?.();
  stopServer = undefined;
  await s?.dispose();
  s = undefined;
});

/** Runs a shell script without blocking this process, whose servers (the provider, the release) must keep answering. */
function sh(
  script: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return shell(["sh", join(ROOT, script), ...args], { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env }, cwd);
}

function shell(
  argv: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("close", (status) => done({ status, stdout, stderr }));
  });
}

/** A release directory as `make release` lays it out, holding this build for linux-x64. */
function releaseDir(root: string): string {
  const dir = join(root, "release");
  const top = join(root, "pack", `rienda-${VERSION}-linux-x64`);
  mkdirSync(top, { recursive: true });
  copyFileSync(BINARY, join(top, "rienda"));
  chmodSync(join(top, "rienda"), 0o755);
  mkdirSync(dir);
  const archive = `rienda-${VERSION}-linux-x64.tar.gz`;
  expect(
    spawnSync("tar", ["-czf", join(dir, archive), "-C", join(root, "pack"), `rienda-${VERSION}-linux-x64`]).status,
  ).toBe(0);
  const sum = createHash("sha256")
    .update(readFileSync(join(dir, archive)))
    .digest("hex");
  writeFileSync(join(dir, "SHA256SUMS"), `${sum}  ${archive}\n`);
  return dir;
}

/** Serves `dir` over HTTP on 127.0.0.1; returns its base URL. */
function serve(dir: string): string {
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      const name = new URL(request.url).pathname.slice(1);
      const path = join(dir, name);
      return name.includes("/") || !existsSync(path)
        ? new Response("not found", { status: 404 })
        : new Response(Bun.file(path));
    },
  });
  stopServer = () => server.stop(true);
  return `http://127.0.0.1:${server.port}`;
}

describe("scripts/ci/fetch-release.sh", () => {
  test("downloads the archive and SHA256SUMS, checks and installs it", async () => {
    s = await scenario();
    const url = serve(releaseDir(s.inst.root));
    const prefix = join(s.inst.root, "prefix");
    const r = await sh(
      "scripts/ci/fetch-release.sh",
      ["--version", VERSION, "--base-url", url, "--target", "linux-x64", "--prefix", prefix],
      { HOME: s.inst.home },
      s.inst.root,
    );
    expect(r.stderr).not.toContain("fetch-release.sh:");
    expect(r.status).toBe(0);
    const version = spawnSync(join(prefix, "bin", "rienda"), ["--version"], { encoding: "utf8" });
    expect(version.stdout).toContain(VERSION);
  });

  test("a checksum that does not match installs nothing", async () => {
    s = await scenario();
    const dir = releaseDir(s.inst.root);
    writeFileSync(
      join(dir, "SHA256SUMS"),
      readFileSync(join(dir, "SHA256SUMS"), "utf8").replace(/^./, (c) => (c === "0" ? "1" : "0")),
    );
    const url = serve(dir);
    const prefix = join(s.inst.root, "prefix");
    const r = await sh(
      "scripts/ci/fetch-release.sh",
      ["--version", VERSION, "--base-url", url, "--target", "linux-x64", "--prefix", prefix],
      { HOME: s.inst.home },
      s.inst.root,
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/checksum|SHA-256|sha256/i);
    expect(existsSync(join(prefix, "bin", "rienda"))).toBe(false);
  });

  test("a release that is not there fails naming the URL", async () => {
    s = await scenario();
    const url = serve(join(s.inst.root));
    const r = await sh(
      "scripts/ci/fetch-release.sh",
      ["--version", "9.9.9", "--base-url", url, "--target", "linux-x64", "--prefix", join(s.inst.root, "p")],
      { HOME: s.inst.home },
      s.inst.root,
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`fetch-release.sh: could not download ${url}/SHA256SUMS`);
  });
});

describe(".github/actions/rienda", () => {
  test("action.yml runs its scripts in order, and each exists", () => {
    const action = parse(readFileSync(join(ROOT, ".github/actions/rienda/action.yml"), "utf8")) as {
      runs: { using: string; steps: { run?: string; uses?: string; if?: string }[] };
    };
    expect(action.runs.using).toBe("composite");
    const scripts = action.runs.steps.flatMap((step) =>
      step.run ? [step.run.match(/\$GITHUB_ACTION_PATH\/([\w.-]+)/)![1]!] : [],
    );
    expect(scripts).toEqual(["install.sh", "run.sh", "finish.sh"]);
    for (const script of scripts) expect(existsSync(join(ROOT, ".github/actions/rienda", script))).toBe(true);
    const upload = action.runs.steps.find((step) => step.uses?.startsWith("actions/upload-artifact"));
    expect(upload?.if).toBe("always()");
  });

  test("its steps as a runner runs them: install, run, artifacts, the job failing on rienda's status", async () => {
    s = await scenario();
    s.inst.file(".ci/reviewer.md", "---\ndescription: Reviews.\nmodel: p/m\n---\nYou review.\n");
    const url = serve(releaseDir(s.inst.root));
    const home = join(s.inst.root, "runner-home");
    const temp = join(s.inst.root, "runner-temp");
    mkdirSync(temp, { recursive: true });
    const actionPath = join(ROOT, ".github/actions/rienda");
    const github = {
      HOME: home,
      GITHUB_ACTION_PATH: actionPath,
      GITHUB_OUTPUT: join(temp, "output"),
      GITHUB_PATH: join(temp, "path"),
    };
    const config = readFileSync(s.inst.riendaPath("config.yaml"), "utf8");
    const step = (name: string, env: Record<string, string>) =>
      sh(`.github/actions/rienda/${name}`, [], { ...github, ...env }, s!.inst.workspace);

    const install = await step("install.sh", { RIENDA_VERSION: VERSION, RIENDA_RELEASE_URL: url });
    expect(install.status).toBe(0);
    expect(readFileSync(github.GITHUB_PATH, "utf8")).toBe(`${home}/.local/bin\n`);

    s.server.script({ text: "Looks good to me." });
    const out = join(temp, "rienda-run");
    const run = await step("run.sh", {
      RIENDA_ARGS: `--agent-file .ci/reviewer.md -p "Review the change" --max-turns 5`,
      RIENDA_CONFIG_TEXT: config,
      RIENDA_OUT: out,
    });
    expect(run.status).toBe(0);
    expect(readFileSync(github.GITHUB_OUTPUT, "utf8")).toBe(`status=0\nanswer-file=${out}/answer.txt\n`);
    expect(readFileSync(join(out, "answer.txt"), "utf8")).toBe("Looks good to me.\n");
    const events = readFileSync(join(out, "events.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; reason?: string });
    expect(events.at(-1)).toMatchObject({ type: "run_end", reason: "end_turn" });
    expect(messageEntries(join(out, "session.jsonl")).map((e) => e.role)).toEqual(["user", "assistant"]);
    expect(statOf(join(home, ".rienda/config.yaml"))).toBe(0o600);
    expect((await step("finish.sh", { RIENDA_STATUS: "0" })).status).toBe(0);

    // A limit: the run step still succeeds (the artifact is uploaded), the last step fails the job with 3.
    s.server.script({ toolCalls: [{ id: "c1", name: "ghost", arguments: {} }] }, { text: "never reached" });
    writeFileSync(github.GITHUB_OUTPUT, "");
    const limited = await step("run.sh", {
      RIENDA_ARGS: `--agent-file .ci/reviewer.md -p "Review" --max-turns 1`,
      RIENDA_CONFIG_TEXT: config,
      RIENDA_OUT: out,
    });
    expect(limited.status).toBe(0);
    expect(readFileSync(github.GITHUB_OUTPUT, "utf8")).toContain("status=3\n");
    const finish = await step("finish.sh", { RIENDA_STATUS: "3" });
    expect(finish.status).toBe(3);
    expect(finish.stdout).toContain("::error::rienda: a limit ended the run (exit 3)");
  });
});

function statOf(path: string): number {
  return statSync(path).mode & 0o777;
}

describe("deploy/kubernetes/indexed-job.yaml", () => {
  test("each pod's shard runs its lines; together they run every input once", async () => {
    s = await scenario();
    const manifest = parse(readFileSync(join(ROOT, "deploy/kubernetes/indexed-job.yaml"), "utf8")) as {
      spec: {
        completionMode: string;
        completions: number;
        parallelism: number;
        template: {
          spec: {
            containers: {
              command: string[];
              args: string[];
              workingDir?: string;
              env: { name: string; value?: string }[];
            }[];
          };
        };
      };
    };
    expect(manifest.spec.completionMode).toBe("Indexed");
    const container = manifest.spec.template.spec.containers[0]!;
    const shards = Number(container.env.find((e) => e.name === "SHARDS")!.value);
    expect(shards).toBe(manifest.spec.completions);
    expect(container.command).toEqual(["sh", "/opt/rienda/scripts/ci/shard.sh"]);

    // The manifest's arguments, with its mounts mapped onto this test's folders.
    const work = s.inst.workspace;
    const files = ["a.txt", "b.txt", "c.txt", "d.txt", "e.txt", "f.txt"];
    for (const f of files) s.inst.file(f, `content of ${f}\n`);
    s.inst.file("inputs.txt", files.join("\n") + "\n");
    s.inst.file("reviewer.md", "---\ndescription: Reviews.\nmodel: p/m\n---\nYou review.\n");
    const out = join(s.inst.root, "out");
    const args = container.args.map((a) => a.replace("/work", work).replace(/^\/out$/, out));
    // The pod's working directory: the manifest's workingDir (mapped as its mount is), else the image's, `/`.
    const podCwd = container.workingDir?.replace("/work", work) ?? "/";
    s.server.script(
      ...files.map(() => (request: { body: unknown }) => ({
        text: `reviewed: ${JSON.stringify(request.body).match(/content of (\w\.txt)/)![1]}`,
      })),
    );
    for (let index = 0; index < shards; index++) {
      const r = await sh(
        "scripts/ci/shard.sh",
        args,
        { ...s.inst.env(), JOB_COMPLETION_INDEX: String(index), SHARDS: String(shards), RIENDA: BINARY },
        podCwd,
      );
      expect(r.stderr).not.toContain("exit 1");
      expect(r.status).toBe(0);
    }
    expect(readdirSync(out).sort()).toEqual(["0", "1", "2", "3", "4", "5"]);
    for (const [n, f] of files.entries()) {
      expect(readFileSync(join(out, String(n), "status"), "utf8")).toBe("0\n");
      expect(readFileSync(join(out, String(n), "answer.txt"), "utf8")).toBe(`reviewed: ${f}\n`);
    }
    const prompts = s.server.requests.map((r) => JSON.stringify(r.body).match(/Review (\w\.txt)/)![1]).sort();
    expect(prompts).toEqual(files);
  });

  test("a failing input makes its shard fail with that status, the others still run", async () => {
    s = await scenario();
    s.inst.file("inputs.txt", "one\ntwo\nthree\n");
    s.server.script({ text: "ok" }, { error: { status: 400, message: "bad request" } }, { text: "ok" });
    const out = join(s.inst.root, "out");
    const r = await sh(
      "scripts/ci/shard.sh",
      ["--inputs", "inputs.txt", "--out", out, "--", "-a", "coder", "-p", "do {}"],
      { ...s.inst.env(), RIENDA: BINARY },
      s.inst.workspace,
    );
    expect(r.status).toBe(1);
    expect(["0", "1", "2"].map((n) => readFileSync(join(out, n, "status"), "utf8").trim())).toEqual(["0", "1", "0"]);
  });
});

describe("a fleet under xargs -P 8", () => {
  test("100 runs, a third rate-limited with Retry-After: every run exits 0 with its session, the retries wait as asked", async () => {
    s = await scenario();
    const limited = new Set<string>();
    // The first request of every third input is answered 429 with Retry-After: 1.
    const answer = (request: { body: unknown }) => {
      const item = JSON.stringify(request.body).match(/item (\d+)/)![1]!;
      if (Number(item) % 3 === 0 && !limited.has(item)) {
        limited.add(item);
        return {
          error: { status: 429, type: "rate_limit_error", message: "slow down", headers: { "retry-after": "1" } },
        };
      }
      return { text: `done ${item}` };
    };
    s.server.script(...Array.from({ length: 134 }, () => answer));
    s.inst.file("items.txt", Array.from({ length: 100 }, (_, i) => `${i}`).join("\n") + "\n");
    const logs = join(s.inst.root, "logs");
    mkdirSync(logs);
    const r = await shell(
      [
        "sh",
        "-c",
        `xargs -P 8 -I{} sh -c '"$0" run -a coder -p "item {}" --json > "$1/{}.jsonl"' "${BINARY}" "${logs}" < items.txt`,
      ],
      s.inst.env(),
      s.inst.workspace,
    );
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(limited.size).toBe(34);
    let retried = 0;
    for (let i = 0; i < 100; i++) {
      const events = readFileSync(join(logs, `${i}.jsonl`), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { type: string; reason?: string; delayMs?: number });
      expect(events.at(-1)).toMatchObject({ type: "run_end", reason: "end_turn" });
      const retries = events.filter((e) => e.type === "retry");
      if (i % 3 === 0) {
        expect(retries.map((e) => e.delayMs)).toEqual([1000]);
        retried++;
      } else expect(retries).toEqual([]);
    }
    expect(retried).toBe(34);
    const sessions = sessionFiles(s.inst.home);
    expect(sessions).toHaveLength(100);
    for (const file of sessions) expect(messageEntries(file).map((e) => e.role)).toEqual(["user", "assistant"]);
  });
});
