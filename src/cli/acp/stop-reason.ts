/**
 * How a Rienda run's end answers `session/prompt` (docs/acp.md, "Stop
 * reasons"). ACP has five stop reasons; a run that failed has none, so it
 * is an error response carrying Rienda's message.
 */
import type { StopReason } from "@agentclientprotocol/sdk";
import type { RunOutcome } from "../../engine/index.ts";

/** The answer to a prompt: a stop reason, or a failure with the message the user sees. */
export type PromptEnd = { stopReason: StopReason } | { failure: string };

/**
 * `cancelled` whenever the client cancelled (ACP requires it, even if the
 * run ended otherwise meanwhile); a model's refusal (which ends a Rienda
 * run as a failure, run-agent.ts) is `refusal`; the run's
 * limits are `max_turn_requests` (the requests or the money a turn may
 * spend); an answer cut at the output limit is `max_tokens`.
 */
export function promptEnd(outcome: RunOutcome, cancelled: boolean, lastStopReason: string | undefined): PromptEnd {
  if (cancelled) return { stopReason: "cancelled" };
  switch (outcome.reason) {
    case "end_turn":
      return { stopReason: "end_turn" };
    case "max_tokens":
      return { stopReason: "max_tokens" };
    case "max_turns":
    case "max_cost":
      return { stopReason: "max_turn_requests" };
    case "interrupted":
    case "timeout":
      return { stopReason: "cancelled" };
    case "invalid_output":
    case "error":
      if (lastStopReason === "refusal") return { stopReason: "refusal" };
      return { failure: outcome.message ?? "the run failed" };
  }
}
