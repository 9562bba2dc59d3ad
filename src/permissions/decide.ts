/**
 * Which rule decides a tool call. `deny` wins over everything; otherwise
 * the longest matching `ask` or `allow` pattern decides (`ask` on a tie),
 * so `allow: [git status]` carves an exception out of `ask: [git]`. A
 * shell line of several commands (`a && b`, `$(c)`) is decided by its
 * strictest command. A call no rule matches is allowed, unless its tool
 * has an `allow` list: then it is asked.
 */
import { splitCommands } from "./shell-words.ts";
import type { PermissionDecision, PermissionRule } from "./types.ts";

/** The decision on a call of `tool` with `args` under `rules` (every place's, config.yaml's and the agent's). */
export function decideCall(rules: readonly PermissionRule[], tool: string, args: unknown): PermissionDecision {
  const concerned = rules.filter((r) => r.tool === tool || r.tool === "*");
  if (concerned.length === 0) return { kind: "allow" };
  const hasAllowList = concerned.some((r) => r.kind === "allow");
  if (tool !== "shell") return decideWords(concerned, undefined, hasAllowList);
  const command = isCommandArgs(args) ? args.command : undefined;
  const commands = command === undefined ? undefined : splitCommands(command);
  if (!commands) {
    const deny = concerned.find((r) => r.kind === "deny" && r.words[0] === "*");
    if (deny) return { kind: "deny", rule: deny, why: "it matches" };
    return {
      kind: "ask",
      why: "its command could not be split into words (an unclosed quote), so no rule can be checked",
    };
  }
  // The strictest command of the line decides: deny, then ask, then allow.
  const decisions = (commands.length > 0 ? commands : [[]]).map((words) => decideWords(concerned, words, hasAllowList));
  return decisions.find((d) => d.kind === "deny") ?? decisions.find((d) => d.kind === "ask") ?? decisions[0]!;
}

/** One command's decision (`words` undefined: a tool other than shell, which only `*` patterns match). */
function decideWords(
  rules: readonly PermissionRule[],
  words: readonly string[] | undefined,
  hasAllowList: boolean,
): PermissionDecision {
  const matching = rules.filter((r) => matches(r.words, words));
  const deny = matching.find((r) => r.kind === "deny");
  if (deny) return { kind: "deny", rule: deny, why: "it matches" };
  const best = matching.reduce<PermissionRule | undefined>((found, r) => {
    if (!found || r.words.length > found.words.length) return r;
    return r.words.length === found.words.length && r.kind === "ask" ? r : found;
  }, undefined);
  if (best?.kind === "ask") return { kind: "ask", rule: best, why: "it matches" };
  if (best) return { kind: "allow", rule: best };
  return hasAllowList ? { kind: "ask", why: "no allow rule matches it" } : { kind: "allow" };
}

/** A pattern's words are a prefix of the command's (`*` matches any one word; a lone `*`, anything). */
function matches(pattern: readonly string[], words: readonly string[] | undefined): boolean {
  if (pattern.length === 1 && pattern[0] === "*") return true;
  if (words === undefined || pattern.length > words.length) return false;
  return pattern.every((p, i) => p === "*" || p === words[i]);
}

function isCommandArgs(args: unknown): args is { command: string } {
  return typeof args === "object" && args !== null && typeof (args as { command?: unknown }).command === "string";
}

/** How a message names a rule: `deny shell "git push" (FILE)`. */
export function ruleText(rule: PermissionRule): string {
  return `${rule.kind} ${rule.tool === "*" ? "every tool" : rule.tool} "${rule.pattern}" (${rule.source})`;
}
