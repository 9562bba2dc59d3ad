/** Permission rules for tool calls (docs/security.md, "Permission rules"). */

/** What a rule does to a call it matches. */
export type RuleKind = "allow" | "ask" | "deny";

export const RULE_KINDS: readonly RuleKind[] = ["allow", "ask", "deny"];

/** One pattern of one list, where it was written. */
export interface PermissionRule {
  kind: RuleKind;
  /** A tool name, or `*` for every tool. */
  tool: string;
  /** As written. */
  pattern: string;
  /** For `shell`: the pattern's words (`*` matches any one word); `["*"]` for any call. */
  words: readonly string[];
  /** The file that wrote it (an agent file, config.yaml). */
  source: string;
}

/** The decision on one call: `rule` is the one that decided (none: no rule concerned the call). */
export type PermissionDecision =
  | { kind: "allow"; rule?: PermissionRule }
  | { kind: "ask" | "deny"; rule?: PermissionRule; why: string };
