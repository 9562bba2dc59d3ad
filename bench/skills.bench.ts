// What declared skills add to the start of a run. In process: reading and
// checking 10 SKILL.md files (each a realistic 4 KB skill), the system
// prompt section and the skill tool, first call and warm. Whole process:
// start to the first provider request for an agent declaring 10 skills
// beside the same agent declaring none, runs alternated so both see the
// same machine load.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createSkillTool, loadSkills, withSkills } from "../src/skills/index.ts";
import { startProviderServer } from "../test/support/provider-server.ts";
import { msToFirstRequest } from "./support/first-request.ts";
import { report } from "./support/report.ts";

const root = resolve(import.meta.dir, "..");
const binary = process.env.RIENDA_BINARY ?? join(root, "dist/rienda");
if (!existsSync(binary)) throw new Error(`no binary at ${binary}: run make build`);
const work = mkdtempSync(join(tmpdir(), "rienda-bench-skills-"));
const home = join(work, "home");
const template = readFileSync(join(root, "test/fixtures/skills/brand-guidelines/SKILL.md"), "utf8");
const names = Array.from({ length: 10 }, (_, i) => `skill-${String(i + 1).padStart(2, "0")}`);
for (const name of names) {
  const dir = join(home, ".rienda/skills", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "SKILL.md"), template.replace("name: brand-guidelines", `name: ${name}`));
  cpSync(join(root, "test/fixtures/skills/theme-factory/themes"), join(dir, "themes"), { recursive: true });
}

// In process, the first call (cold: the yaml parser's first documents) and then warm.
{
  const time = () => {
    const start = performance.now();
    const skills = loadSkills(home, names);
    withSkills("Bench.", skills);
    createSkillTool(skills);
    return performance.now() - start;
  };
  const first = time();
  const warm: number[] = [];
  for (let i = 0; i < 200; i++) warm.push(time());
  console.log(`10 skills loaded, first call in this process: ${first.toFixed(2)} ms`);
  report("10 skills: load, prompt section, tool (warm)", warm, "ms");
}

const server = await startProviderServer();
mkdirSync(join(home, ".rienda/agents"), { recursive: true });
writeFileSync(
  join(home, ".rienda/config.yaml"),
  `providers:\n  p:\n    protocol: openai_chat_completions\n    base_url: ${server.url}/v1\n    api_key: ""\n    models:\n      m: {}\n`,
);
// Both agents have a tool, so both load the argument validator in the
// background after start; what differs is only the skills.
writeFileSync(
  join(home, ".rienda/agents/one.md"),
  `---\ndescription: one skill\nmodel: p/m\ntools: [shell]\nskills: [skill-01]\n---\nBench.\n`,
);
writeFileSync(
  join(home, ".rienda/agents/none.md"),
  `---\ndescription: no skills\nmodel: p/m\ntools: [shell]\n---\nBench.\n`,
);
writeFileSync(
  join(home, ".rienda/agents/ten.md"),
  `---\ndescription: ten skills\nmodel: p/m\ntools: [shell]\nskills: [${names.join(", ")}]\n---\nBench.\n`,
);
const env = { PATH: process.env.PATH ?? "", HOME: home };

const timeToFirstRequest = (agent: string) =>
  msToFirstRequest(server, { binary, env, cwd: work }, ["run", "-a", agent, "-p", "hi"]);

const agents = ["none", "one", "ten"] as const;
const samples: Record<(typeof agents)[number], number[]> = { none: [], one: [], ten: [] };
const diff: number[] = [];
const diffNone: number[] = [];
for (let i = 0; i < 43; i++) {
  const round: Record<string, number> = {};
  for (const agent of agents) round[agent] = await timeToFirstRequest(agent);
  if (i < 3) continue;
  for (const agent of agents) samples[agent].push(round[agent]!);
  diff.push(round.ten! - round.one!);
  diffNone.push(round.ten! - round.none!);
}
report("start to first request, tool + 0 skills", samples.none, "ms");
report("start to first request, tool + 1 skill", samples.one, "ms");
report("start to first request, tool + 10 skills", samples.ten, "ms");
report("  difference per alternated round (10 - 1)", diff, "ms");
report("  difference per alternated round (10 - 0)", diffNone, "ms");
await server.close();
