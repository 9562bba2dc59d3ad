/**
 * `permissions:` as written in an agent's frontmatter or config.yaml:
 * a mapping of tool name (or `*`, every tool) to `allow`, `ask` and `deny`
 * lists of patterns. A `shell` pattern is the start of a command as words
 * (`git push`); any other tool's is `*`, every call of it.
 */
import { describeYamlValue, isPlainObject } from "../values.ts";
import { splitCommands } from "./shell-words.ts";
import { RULE_KINDS, type PermissionRule, type RuleKind } from "./types.ts";

const TOOL_KEY = /^(\*|[A-Za-z0-9_-]{1,64})$/;

/** One problem: the key path under `permissions` and what is wrong. */
export interface RuleProblem {
  path: (string | number)[];
  message: string;
}

/** The rules written at `source`, in the order written, and what could not be read. */
export function readPermissionRules(
  value: unknown,
  source: string,
): { rules: PermissionRule[]; problems: RuleProblem[] } {
  const rules: PermissionRule[] = [];
  const problems: RuleProblem[] = [];
  if (value === undefined || value === null) return { rules, problems };
  if (!isPlainObject(value)) {
    problems.push({
      path: [],
      message: `must be a mapping of tool names to allow, ask and deny lists, such as { shell: { deny: ["git push"] } }, not ${describeYamlValue(value)}`,
    });
    return { rules, problems };
  }
  for (const [tool, lists] of Object.entries(value)) {
    if (!TOOL_KEY.test(tool)) {
      problems.push({ path: [tool], message: 'must be a tool name (letters, digits, "_", "-") or * for every tool' });
      continue;
    }
    if (!isPlainObject(lists)) {
      problems.push({
        path: [tool],
        message: `must be a mapping of allow, ask and deny lists, not ${describeYamlValue(lists)}`,
      });
      continue;
    }
    for (const [kind, patterns] of Object.entries(lists)) {
      if (!(RULE_KINDS as readonly string[]).includes(kind)) {
        problems.push({ path: [tool, kind], message: `unknown key (known keys: ${RULE_KINDS.join(", ")})` });
        continue;
      }
      rules.push(...readList(tool, kind as RuleKind, patterns, source, problems));
    }
  }
  return { rules, problems };
}

function readList(
  tool: string,
  kind: RuleKind,
  value: unknown,
  source: string,
  problems: RuleProblem[],
): PermissionRule[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.push({ path: [tool, kind], message: `must be a list of patterns, not ${describeYamlValue(value)}` });
    return [];
  }
  const rules: PermissionRule[] = [];
  value.forEach((pattern, i) => {
    const at = [tool, kind, i];
    if (typeof pattern !== "string" || pattern.trim() === "") {
      problems.push({ path: at, message: `must be a pattern, not ${describeYamlValue(pattern)}` });
      return;
    }
    const written = pattern.trim();
    if (written === "*") {
      rules.push({ kind, tool, pattern: written, words: ["*"], source });
      return;
    }
    if (tool !== "shell") {
      problems.push({
        path: at,
        message: `"${written}": only a shell rule matches the words of a command; for another tool the pattern is *, every call of it`,
      });
      return;
    }
    const commands = splitCommands(written);
    if (!commands || commands.length !== 1) {
      problems.push({
        path: at,
        message: `"${written}" must be the start of one command, as words (such as "git push"), without ;, |, & or an unclosed quote`,
      });
      return;
    }
    rules.push({ kind, tool, pattern: written, words: commands[0]!, source });
  });
  return rules;
}
