/**
 * The Go Rienda's workspace skills (go-current.md §9) through the binary:
 * `<workspace>/.agents/skills/<dir>/SKILL.md` reaches the model as a
 * catalog in the system prompt, is read again before every request (a
 * skill written by a tool call counts from the next request), and a skill
 * that is a link out of the workspace is skipped with a warning.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { scenario, systemOf, type Scenario } from "../support/scenario.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

const skillText = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nSteps.\n`;

describe("workspace skills", () => {
  test("are listed in the system prompt, and a skill added mid-run counts from the next request", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.inst.file(".agents/skills/review/SKILL.md", skillText("review", "Reviews a diff & says what is wrong."));
    const add = `mkdir -p .agents/skills/deploy && printf -- '---\\nname: deploy\\ndescription: Deploys.\\n---\\n' > .agents/skills/deploy/SKILL.md`;
    s.server.script({ toolCalls: [{ name: "shell", arguments: { command: add } }] }, { text: "done" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    const first = systemOf(s.server.requests[0]!);
    expect(first).toStartWith("You are a test agent.\n\n");
    expect(first).toContain("read that skill's SKILL.md with your tools before proceeding");
    expect(first).toContain(
      "<available_skills>\n<skill><name>review</name><description>Reviews a diff &amp; says what is wrong.</description><location>.agents/skills/review/SKILL.md</location></skill>\n</available_skills>",
    );
    expect(first).not.toContain("deploy");
    const second = systemOf(s.server.requests[1]!);
    expect(second).toContain(
      "<skill><name>deploy</name><description>Deploys.</description><location>.agents/skills/deploy/SKILL.md</location></skill>",
    );
  });

  test("a skill folder that is a link out of the workspace is skipped with a warning naming it", async () => {
    s = await scenario();
    const outside = s.inst.write(join(s.inst.root, "elsewhere", "SKILL.md"), skillText("leak", "Reads secrets."));
    mkdirSync(join(s.inst.workspace, ".agents", "skills"), { recursive: true });
    const link = join(s.inst.workspace, ".agents", "skills", "leak");
    symlinkSync(join(s.inst.root, "elsewhere"), link);
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`the link ${link} (to ${join(s.inst.root, "elsewhere")}) leads out of the workspace`);
    expect(systemOf(s.server.requests[0]!)).not.toContain("available_skills");
    expect(outside).toBeDefined();
  });
});
