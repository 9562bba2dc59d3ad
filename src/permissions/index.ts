/**
 * Permission rules for tool calls (issue 43, docs/security.md "Permission
 * rules"): `allow`, `ask` and `deny` lists of patterns per tool, read from
 * agent files and config.yaml, and the verdict on one call. A `shell`
 * pattern matches the words of each command of the line after a real shell
 * word split, never raw text.
 *
 * Invariants: deny wins; a line that cannot be split is never allowed by a
 * pattern. Rules are a convenience, not a boundary: `sh -c`, `env`, `xargs`
 * and every interpreter run commands no pattern sees (the sandbox is the
 * boundary). Must not know about the engine, tools or the command line.
 */
export { checkCall, type AskUser, type CallVerdict } from "./check-call.ts";
export { decideCall, ruleText } from "./decide.ts";
export { readPermissionRules, type RuleProblem } from "./read-rules.ts";
export { splitCommands } from "./shell-words.ts";
export { RULE_KINDS, type PermissionDecision, type PermissionRule, type RuleKind } from "./types.ts";
