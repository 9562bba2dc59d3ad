import { expect, test } from "bun:test";
import { promptEnd } from "../../../src/cli/acp/stop-reason.ts";
import type { RunOutcome } from "../../../src/engine/index.ts";

const usage = { inputTokens: 0, outputTokens: 0 };
const outcome = (reason: RunOutcome["reason"], message?: string): RunOutcome => ({
  reason,
  usage,
  ...(message ? { message } : {}),
});

test("each way a run ends answers the prompt as docs/acp.md's table says", () => {
  expect(promptEnd(outcome("end_turn"), false, "end_turn")).toEqual({ stopReason: "end_turn" });
  expect(promptEnd(outcome("end_turn"), true, "end_turn")).toEqual({ stopReason: "cancelled" });
  expect(promptEnd(outcome("interrupted"), false, undefined)).toEqual({ stopReason: "cancelled" });
  expect(promptEnd(outcome("max_tokens"), false, "max_tokens")).toEqual({ stopReason: "max_tokens" });
  expect(promptEnd(outcome("max_turns"), false, "tool_use")).toEqual({ stopReason: "max_turn_requests" });
  expect(promptEnd(outcome("max_cost"), false, "tool_use")).toEqual({ stopReason: "max_turn_requests" });
  expect(promptEnd(outcome("error", "the provider ended the answer as a refusal"), false, "refusal")).toEqual({
    stopReason: "refusal",
  });
  expect(promptEnd(outcome("error", "HTTP 500 from p"), false, undefined)).toEqual({ failure: "HTTP 500 from p" });
  expect(promptEnd(outcome("invalid_output"), false, "end_turn")).toEqual({ failure: "the run failed" });
});
