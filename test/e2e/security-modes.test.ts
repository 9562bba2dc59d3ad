/**
 * Issue 39, item 12: under `umask 000`, `rienda init` and a first run make
 * nothing in ~/.rienda writable by others: directories are 0700 (a
 * world-writable tools/ would let any user of the machine run code as
 * you), config.yaml and session files 0600.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { BINARY, Instance } from "../support/instance.ts";

let inst: Instance | undefined;
afterEach(() => {
  inst?.dispose();
  inst = undefined;
});

/** Every path under `dir` with its permission bits. */
function modes(dir: string): Array<[string, number, boolean]> {
  const out: Array<[string, number, boolean]> = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    out.push([path, statSync(path).mode & 0o777, entry.isDirectory()]);
    if (entry.isDirectory()) out.push(...modes(path));
  }
  return out;
}

describe("file modes whatever the umask (issue 39, item 12)", () => {
  test("rienda init and a run under umask 000: directories 0700, nothing writable by group or others, config.yaml and sessions 0600", () => {
    inst = new Instance();
    rmSync(inst.riendaPath(), { recursive: true, force: true });
    const env = inst.env({ OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined });
    const underUmask = (args: string[]) =>
      spawnSync("sh", ["-c", 'umask 000; exec "$@"', "sh", BINARY, ...args], {
        cwd: inst!.workspace,
        env,
        encoding: "utf8",
      });
    const init = underUmask(["init"]);
    expect(init.status).toBe(0);
    const run = underUmask(["run", "-a", "starter", "-p", "hi"]);
    expect(run.status).toBe(0);
    const all = modes(inst.riendaPath());
    expect(all.filter(([, , dir]) => dir).map(([path, mode]) => [path, mode.toString(8)])).toEqual(
      all.filter(([, , dir]) => dir).map(([path]) => [path, "700"]),
    );
    expect(all.filter(([, mode]) => (mode & 0o022) !== 0).map(([path]) => path)).toEqual([]);
    expect(statSync(inst.riendaPath()).mode & 0o777).toBe(0o700);
    expect(statSync(inst.riendaPath("config.yaml")).mode & 0o777).toBe(0o600);
    const sessions = all.filter(([path, , dir]) => !dir && path.endsWith(".jsonl"));
    expect(sessions.length).toBe(1);
    expect(sessions.map(([, mode]) => mode.toString(8))).toEqual(["600"]);
  });
});
