/**
 * One run of an rpc prompt, written as `rienda run --json` writes it
 * (docs/rpc.md): run_start, the notices, the engine's events, run_end last,
 * whatever happened (an error or an interrupt is a run_end too).
 */
import { userMessage } from "../../errors.ts";
import type { EngineEvent, RunOutcome } from "../../engine/index.ts";
import type { Conversation } from "../../conversation/index.ts";
import type { TurnInterrupts } from "../../turn-interrupts.ts";
import { createRunOutput, type RunOutput } from "../../ui/index.ts";
import type { CommandId } from "./rpc-protocol.ts";

/** Where the server writes its lines (stdout) and what it can say on stderr. */
export interface RpcWire {
  write(line: string): void;
  stderr: { write(text: string): unknown };
}

/** The --json output as it is, each line tagged with the command that caused it. */
export function taggedRunOutput(wire: RpcWire, id: CommandId): RunOutput {
  const tag = JSON.stringify(id);
  return createRunOutput(
    { json: true },
    { write: (line: string) => wire.write(line.replace(/^\{/, `{"command_id":${tag},`)) },
    wire.stderr,
  );
}

/** Runs `text` as the conversation's next turn under `interrupts`; never throws. */
export async function runTurnAsJson(
  backend: Conversation,
  text: string,
  interrupts: TurnInterrupts,
  output: RunOutput,
): Promise<void> {
  const status = backend.status();
  output.start({ sessionId: status.sessionId, agent: status.agent, model: status.model, workdir: status.workdir });
  for (const notice of backend.notices()) output.event({ type: "notice", message: notice });
  let outcome: RunOutcome;
  try {
    outcome = await backend.runTurn(text, {
      emit: (event: EngineEvent) => output.event(event),
      signal: interrupts.signal,
      finalSignal: interrupts.finalSignal,
    });
  } catch (error) {
    if (interrupts.signal.aborted) output.end({ reason: "interrupted", usage: null });
    else output.end({ reason: "error", usage: null, message: userMessage(error) });
    return;
  }
  if (interrupts.signal.aborted || outcome.reason === "interrupted") {
    output.end({
      reason: "interrupted",
      usage: outcome.usage,
      ...(outcome.cost !== undefined ? { cost: outcome.cost } : {}),
    });
    return;
  }
  output.end({
    reason: outcome.reason,
    usage: outcome.usage,
    ...(outcome.message ? { message: outcome.message } : {}),
    ...(outcome.cost !== undefined ? { cost: outcome.cost } : {}),
  });
}
