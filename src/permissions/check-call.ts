/**
 * A tool call through the rules: allowed, refused naming the rule, or
 * asked (as `ctx.confirm` asks: a question in the chat and over RPC, yes
 * with `-y`, no in a script without a terminal).
 */
import { decideCall, ruleText } from "./decide.ts";
import type { PermissionRule } from "./types.ts";

/** What the engine's permission port answers (engine/ports.ts `PermissionVerdict`). */
export type CallVerdict =
  | { kind: "allow" }
  | { kind: "allowed"; rule: string }
  | { kind: "refuse"; reason: string; rule?: string; asked: boolean };

/** Asks the user; true when they allow it. */
export type AskUser = (prompt: { title: string; body: string }) => Promise<boolean>;

/** The verdict on one call of `name` with `args`. */
export async function checkCall(
  rules: readonly PermissionRule[],
  call: { name: string; arguments: unknown },
  ask: AskUser,
): Promise<CallVerdict> {
  const decision = decideCall(rules, call.name, call.arguments);
  if (decision.kind === "allow") return { kind: "allow" };
  const named = decision.rule ? ruleText(decision.rule) : undefined;
  if (decision.kind === "deny") {
    return {
      kind: "refuse",
      reason: `refused by the permission rule ${named}: do not retry this another way; ask the user`,
      ...(named ? { rule: named } : {}),
      asked: false,
    };
  }
  const because = named
    ? `the permission rule ${named} asks first`
    : `the ${call.name} tool has an allow list and ${decision.why}`;
  const approved = await ask({ title: `Allow this ${call.name} call?`, body: `${describeCall(call)}\n(${because})` });
  if (approved) return { kind: "allowed", rule: named ?? `${call.name}: not in the allow list` };
  return {
    kind: "refuse",
    reason: `refused: ${because}, and the user did not allow it (in a script, -y answers yes)`,
    ...(named ? { rule: named } : {}),
    asked: true,
  };
}

/** The call as the question shows it: the command of a shell call, else the arguments as JSON. */
function describeCall(call: { name: string; arguments: unknown }): string {
  const args = call.arguments as { command?: unknown } | null;
  if (call.name === "shell" && typeof args?.command === "string") return args.command;
  return JSON.stringify(call.arguments) ?? String(call.arguments);
}
