/** The `replay` protocol adapter: answers from a script instead of a model. */
import { isAbsolute, resolve } from "node:path";
import { abortedFailure, providerFailure } from "./provider-failure.ts";
import { parseReplayScript } from "./replay-script.ts";
import { ResponseBuilder } from "./response-builder.ts";
import type { AdapterDeps, ModelRequest, ProtocolAdapter, StreamEvent } from "./types.ts";

/**
 * The `replay` protocol: answers from a YAML script instead of a model, for
 * offline demos and deterministic tests of agents and extensions.
 *
 * Which turn answers a request is derived from the conversation, not from a
 * counter: the request whose messages hold N assistant messages gets turn
 * N+1. So the adapter keeps no state, a continued session (`-s`) resumes
 * where it stopped, and an interrupted turn (never stored) is replayed.
 * The script is read on every request; a missing turn is an error naming
 * the file.
 */
export function createReplayAdapter(deps: Pick<AdapterDeps, "readTextFile">): ProtocolAdapter {
  return {
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<StreamEvent> {
      if (signal.aborted) {
        yield { type: "error", failure: abortedFailure() };
        return;
      }
      const fail = (message: string): StreamEvent => ({
        type: "error",
        failure: providerFailure("other", message, { retryable: false }),
      });
      const script = request.model.script;
      if (!script) {
        yield fail(`model "${request.model.ref}" uses protocol replay but names no script`);
        return;
      }
      const path = isAbsolute(script) ? script : resolve(script);
      let source: string;
      try {
        source = await deps.readTextFile(path);
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        yield fail(
          code === "ENOENT"
            ? `replay script ${path} does not exist`
            : `cannot read replay script ${path}: ${error instanceof Error ? error.message : String(error)}`,
        );
        return;
      }
      const parsed = parseReplayScript(path, source);
      if (!parsed.ok) {
        yield fail(parsed.message);
        return;
      }
      const position = request.messages.filter((message) => message.role === "assistant").length;
      const turn = parsed.turns[position];
      if (!turn) {
        const has = `${parsed.turns.length} turn${parsed.turns.length === 1 ? "" : "s"}`;
        yield fail(
          `replay script ${path} ran out of turns: it has ${has} and the conversation needs turn ${position + 1}`,
        );
        return;
      }
      const builder = new ResponseBuilder();
      if (turn.thinking) yield* builder.thinking(turn.thinking);
      if (turn.text) yield* builder.text(turn.text);
      turn.toolCalls.forEach((call, index) => {
        // Ids derive from the turn's position, so they are unique in the conversation and stable across runs.
        const id = call.id ?? `replay_${position + 1}_${index + 1}`;
        builder.toolCall(String(index), { id, name: call.name, arguments: JSON.stringify(call.arguments) });
      });
      yield* builder.finish(turn.toolCalls.length > 0 ? "tool_use" : "end_turn", turn.usage, request.model.wireId);
    },
  };
}
