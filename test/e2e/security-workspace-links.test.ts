/**
 * Issue 39, item 3: a cloned repository whose AGENTS.md (or CLAUDE.md) is a
 * real symbolic link to a secret outside the workspace (~/.ssh/id_rsa,
 * ../../.aws/credentials) must not get that secret into the system prompt:
 * the file is skipped with a warning naming the link and its target, and
 * `rienda doctor` reports it. Links that stay inside the workspace work.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { scenario, systemOf, type Scenario } from "../support/scenario.ts";

const SECRET = "-----BEGIN OPENSSH PRIVATE KEY----- SECRET-KEY-MATERIAL";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

/** A secret file in HOME, outside the workspace, as ~/.ssh/id_rsa. */
function secretFile(current: Scenario): string {
  return current.inst.write(join(current.inst.home, ".ssh", "id_rsa"), `${SECRET}\n`);
}

describe("workspace files that lead out of the workspace (issue 39, item 3)", () => {
  test("AGENTS.md linked to ~/.ssh/id_rsa is skipped with a warning naming link and target; nothing of it is sent", async () => {
    s = await scenario();
    const secret = secretFile(s);
    const link = join(s.inst.workspace, "AGENTS.md");
    symlinkSync(secret, link);
    s.server.script({ text: "done" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "hello"]);
    expect(r.code).toBe(0);
    expect(JSON.stringify(s.server.requests[0]!.body)).not.toContain("SECRET-KEY-MATERIAL");
    expect(r.stderr).toContain(
      `${link}: skipped: it leads through a symbolic link to ${secret}, outside the workspace`,
    );
    expect(r.stdout).toContain("done");
  });

  test("a relative link (../.aws/credentials) is skipped too, and CLAUDE.md is read instead", async () => {
    s = await scenario();
    const credentials = s.inst.write(
      join(s.inst.root, ".aws", "credentials"),
      "aws_secret_access_key = SECRET-KEY-MATERIAL\n",
    );
    symlinkSync("../.aws/credentials", join(s.inst.workspace, "AGENTS.md"));
    s.server.script({ text: "one" });
    let r = await s.inst.run(["run", "-a", "coder", "-p", "hello"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      `${join(s.inst.workspace, "AGENTS.md")}: skipped: it leads through a symbolic link to ${credentials}, outside the workspace`,
    );
    expect(systemOf(s.server.requests[0]!)).not.toContain("SECRET");

    // CLAUDE.md is the next candidate, read as if AGENTS.md were absent.
    s.inst.file("CLAUDE.md", "Use tabs.\n");
    s.server.script({ text: "two" });
    r = await s.inst.run(["run", "-a", "coder", "-p", "hello"]);
    expect(systemOf(s.server.requests[1]!)).toContain("Use tabs.");
    expect(r.stderr).toContain("AGENTS.md: skipped");
  });

  test("links that stay inside the workspace are followed: AGENTS.md -> docs/rules.md, and a workspace reached through a link", async () => {
    s = await scenario();
    s.inst.file("docs/rules.md", "Always answer in French.\n");
    symlinkSync("docs/rules.md", join(s.inst.workspace, "AGENTS.md"));
    const viaLink = join(s.inst.root, "work-link");
    symlinkSync(s.inst.workspace, viaLink);
    s.server.script({ text: "oui" }, { text: "oui" });
    for (const cwd of [s.inst.workspace, viaLink]) {
      const r = await s.inst.run(["run", "-a", "coder", "-p", "hello"], { cwd });
      expect(r.code).toBe(0);
      expect(r.stderr).not.toContain("skipped");
    }
    for (const request of s.server.requests) expect(systemOf(request)).toContain("Always answer in French.");
  });

  test("--json carries the warning as a notice event", async () => {
    s = await scenario();
    const secret = secretFile(s);
    symlinkSync(secret, join(s.inst.workspace, "CLAUDE.md"));
    s.server.script({ text: "done" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "hello", "--json"]);
    expect(r.code).toBe(0);
    const notices = r.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; message?: string })
      .filter((event) => event.type === "notice");
    expect(notices.map((n) => n.message)).toContain(
      `${join(s.inst.workspace, "CLAUDE.md")}: skipped: it leads through a symbolic link to ${secret}, outside the workspace (Rienda never follows a link out of the workspace for a file it reads on its own)`,
    );
    expect(JSON.stringify(s.server.requests[0]!.body)).not.toContain("SECRET-KEY-MATERIAL");
  });

  test("rienda doctor reports the link and its target", async () => {
    s = await scenario();
    const secret = secretFile(s);
    const link = join(s.inst.workspace, "AGENTS.md");
    symlinkSync(secret, link);
    const r = await s.inst.run(["doctor", "--json"]);
    const report = JSON.parse(r.stdout) as {
      warnings: Array<{ check: string; file: string; message: string }>;
      checked: { instructions: string | null };
    };
    const finding = report.warnings.find((f) => f.file === link);
    expect(finding).toMatchObject({ check: "instructions" });
    expect(report.checked.instructions).toBeNull();
    expect(finding!.message).toContain(`leads through a symbolic link to ${secret}, outside the workspace`);
    const plain = await s.inst.run(["doctor"]);
    expect(plain.stdout + plain.stderr).toContain(link);
    expect(plain.stdout + plain.stderr).toContain(secret);
  });
});
