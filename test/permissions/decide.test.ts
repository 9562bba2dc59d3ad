import { describe, expect, test } from "bun:test";
import { checkCall, decideCall, readPermissionRules, ruleText } from "../../src/permissions/index.ts";

const rules = (value: unknown) => {
  const read = readPermissionRules(value, "config.yaml");
  expect(read.problems).toEqual([]);
  return read.rules;
};
const shell = (command: string) => ({ command });
const kindOf = (value: unknown, tool: string, args: unknown) => decideCall(rules(value), tool, args).kind;

describe("decideCall", () => {
  test("no rule for the tool: allowed", () => {
    expect(kindOf({ shell: { deny: ["rm"] } }, "read", {})).toBe("allow");
    expect(decideCall([], "shell", shell("rm -rf /"))).toEqual({ kind: "allow" });
  });

  test("deny matches a prefix of the words of any command of the line, and wins over any allow", () => {
    const r = { shell: { deny: ["git push"], allow: ["git push --dry-run", "git"] } };
    expect(kindOf(r, "shell", shell("git  push --force"))).toBe("deny");
    expect(kindOf(r, "shell", shell("git push --dry-run"))).toBe("deny");
    expect(kindOf(r, "shell", shell("git status; git push"))).toBe("deny");
    const denyOnly = { shell: { deny: ["git push"] } };
    expect(kindOf(denyOnly, "shell", shell("echo git push"))).toBe("allow");
    expect(kindOf(denyOnly, "shell", shell("gitpush"))).toBe("allow");
  });

  test("the longest of ask and allow decides, ask on a tie; * is any one word", () => {
    const r = { shell: { ask: ["git", "npm * --force"], allow: ["git status", "npm"] } };
    expect(kindOf(r, "shell", shell("git status -s"))).toBe("allow");
    expect(kindOf(r, "shell", shell("git log"))).toBe("ask");
    expect(kindOf(r, "shell", shell("npm install --force"))).toBe("ask");
    expect(kindOf(r, "shell", shell("npm install"))).toBe("allow");
    expect(kindOf({ shell: { ask: ["ls"], allow: ["ls"] } }, "shell", shell("ls"))).toBe("ask");
  });

  test("an allow list asks about every command it does not name, in any part of the line", () => {
    const r = { shell: { allow: ["ls", "cat"] } };
    expect(kindOf(r, "shell", shell("ls -la | cat"))).toBe("allow");
    expect(kindOf(r, "shell", shell("ls && curl x"))).toBe("ask");
    expect(decideCall(rules(r), "shell", shell("curl x"))).toEqual({ kind: "ask", why: "no allow rule matches it" });
  });

  test("a line that cannot be split is asked about, unless * denies the tool", () => {
    expect(kindOf({ shell: { allow: ["echo"] } }, "shell", shell("echo 'open"))).toBe("ask");
    expect(kindOf({ shell: { deny: ["rm"] } }, "shell", shell("echo 'open"))).toBe("ask");
    expect(kindOf({ shell: { deny: ["*"] } }, "shell", shell("echo 'open"))).toBe("deny");
  });

  test("other tools and every tool: * matches each call", () => {
    expect(kindOf({ write_file: { ask: ["*"] } }, "write_file", { path: "x" })).toBe("ask");
    expect(kindOf({ "*": { deny: ["*"] }, read: { allow: ["*"] } }, "read", {})).toBe("deny");
    expect(kindOf({ "*": { ask: ["*"] } }, "shell", shell("ls"))).toBe("ask");
  });
});

describe("checkCall", () => {
  const r = rules({ shell: { deny: ["rm"], ask: ["git push"] } });

  test("deny: refused without asking, naming the rule and its file", async () => {
    let asked = false;
    const verdict = await checkCall(r, { name: "shell", arguments: shell("rm -f x") }, async () => (asked = true));
    expect(asked).toBe(false);
    expect(verdict).toEqual({
      kind: "refuse",
      reason:
        'refused by the permission rule deny shell "rm" (config.yaml): do not retry this another way; ask the user',
      rule: 'deny shell "rm" (config.yaml)',
      asked: false,
    });
  });

  test("ask: the question shows the command and the rule; the answer decides", async () => {
    const prompts: unknown[] = [];
    const yes = await checkCall(r, { name: "shell", arguments: shell("git push origin") }, async (p) => {
      prompts.push(p);
      return true;
    });
    expect(prompts).toEqual([
      {
        title: "Allow this shell call?",
        body: 'git push origin\n(the permission rule ask shell "git push" (config.yaml) asks first)',
      },
    ]);
    expect(yes).toEqual({ kind: "allowed", rule: 'ask shell "git push" (config.yaml)' });
    const no = await checkCall(r, { name: "shell", arguments: shell("git push") }, async () => false);
    expect(no.kind).toBe("refuse");
  });

  test("ruleText", () => {
    expect(ruleText(rules({ "*": { ask: ["*"] } })[0]!)).toBe('ask every tool "*" (config.yaml)');
  });
});

describe("readPermissionRules", () => {
  test("every problem at its key", () => {
    const { problems } = readPermissionRules(
      {
        shell: { deny: "rm", block: [], ask: ["a | b", "", "'open"] },
        "bad name": {},
        read: { allow: ["x"] },
        write: [],
      },
      "f",
    );
    expect(problems.map((p) => `${p.path.join(".")}: ${p.message}`)).toEqual([
      'shell.deny: must be a list of patterns, not a string ("rm")',
      "shell.block: unknown key (known keys: allow, ask, deny)",
      'shell.ask.0: "a | b" must be the start of one command, as words (such as "git push"), without ;, |, & or an unclosed quote',
      'shell.ask.1: must be a pattern, not a string ("")',
      `shell.ask.2: "'open" must be the start of one command, as words (such as "git push"), without ;, |, & or an unclosed quote`,
      'bad name: must be a tool name (letters, digits, "_", "-") or * for every tool',
      'read.allow.0: "x": only a shell rule matches the words of a command; for another tool the pattern is *, every call of it',
      "write: must be a mapping of allow, ask and deny lists, not a list",
    ]);
  });
});
