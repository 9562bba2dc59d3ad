/**
 * The confirmations an rpc run waits for (docs/rpc.md): a `ctx.confirm` of
 * the run is sent as a `confirm_request` event and waits for the client's
 * `confirm_answer`; when the run ends first, each is answered no and the
 * client hears that it is void (`confirm_cancelled`).
 */
import type { Prompt } from "../../tools/types.ts";
import type { ConfirmOrigin } from "../../compose/index.ts";
import type { CommandId } from "./rpc-protocol.ts";

/** A confirmation the run waits for. */
interface PendingConfirm {
  commandId: CommandId | null;
  /** As its confirm_request said it, for the event that cancels it. */
  parent?: string;
  resolve(answer: boolean): void;
}

export class RpcConfirms {
  readonly #pending = new Map<string, PendingConfirm>();
  #count = 0;
  readonly #send: (value: Record<string, unknown>) => void;

  /** `send` writes one event line to the client. */
  constructor(send: (value: Record<string, unknown>) => void) {
    this.#send = send;
  }

  /** The ids of the confirmations waiting for an answer, oldest first (get_state's `waiting_confirms`). */
  get waiting(): string[] {
    return [...this.#pending.keys()];
  }

  /** Asks the client on behalf of the run of `commandId`; resolves with its answer. */
  ask(commandId: CommandId, prompt: Prompt, origin?: ConfirmOrigin): Promise<boolean> {
    const confirmId = `confirm-${++this.#count}`;
    const parent = origin?.parent !== undefined ? { parent: origin.parent } : {};
    return new Promise<boolean>((resolve) => {
      this.#pending.set(confirmId, { commandId, resolve, ...parent });
      this.#send({
        type: "confirm_request",
        command_id: commandId,
        confirm_id: confirmId,
        tool_call_id: origin?.callId ?? null,
        ...parent,
        title: prompt.title,
        body: prompt.body,
      });
    });
  }

  /** The client's answer to `confirmId`; false when no such confirmation is waiting. */
  answer(confirmId: string, answer: boolean): boolean {
    const pending = this.#pending.get(confirmId);
    if (!pending) return false;
    this.#pending.delete(confirmId);
    pending.resolve(answer);
    return true;
  }

  /** A run that is ending gets no for every question it still waits on; the program hears that each is void. */
  cancelAll(): void {
    for (const [id, pending] of this.#pending) {
      this.#pending.delete(id);
      this.#send({
        type: "confirm_cancelled",
        command_id: pending.commandId,
        confirm_id: id,
        ...(pending.parent !== undefined ? { parent: pending.parent } : {}),
      });
      pending.resolve(false);
    }
  }
}
