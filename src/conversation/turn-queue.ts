/**
 * What the user sends while a turn runs (docs/conversation.md "Steering and
 * follow-ups"): steered messages go into the running turn at its next safe
 * point (the engine's steering port: after the tool calls of an answer,
 * before the next request); follow-ups wait for the turn to end and each
 * becomes a turn of its own. Both are taken back (Esc in the chat) until
 * delivered, and an interrupt leaves them to the front end to drop or keep.
 */
import type { SteeringPort, SteerMessage } from "../engine/index.ts";

/** How a queued message reaches the model. */
export type QueueKind = "steer" | "follow_up";

/** One queued message, with the id it can be taken back by. */
export interface QueuedMessage extends SteerMessage {
  id: number;
  kind: QueueKind;
}

/** The queue of one conversation. */
export class TurnQueue {
  #items: QueuedMessage[] = [];
  #next = 1;

  /** Queues a message; its id takes it back. */
  add(kind: QueueKind, message: SteerMessage): number {
    const id = this.#next++;
    this.#items.push({ ...message, id, kind });
    return id;
  }

  /** Takes a message back before it is delivered; undefined when it is gone (delivered, or never queued). */
  withdraw(id: number): QueuedMessage | undefined {
    const index = this.#items.findIndex((item) => item.id === id);
    return index === -1 ? undefined : this.#items.splice(index, 1)[0];
  }

  /** What waits, oldest first. */
  list(): readonly QueuedMessage[] {
    return this.#items;
  }

  /** The oldest follow-up, now out of the queue. */
  nextFollowUp(): QueuedMessage | undefined {
    const index = this.#items.findIndex((item) => item.kind === "follow_up");
    return index === -1 ? undefined : this.#items.splice(index, 1)[0];
  }

  /** Drops everything (an interrupt, a new session); returns how many were dropped. */
  clear(): number {
    return this.#items.splice(0).length;
  }

  /** The engine's view: steered messages only. */
  readonly steering: SteeringPort = {
    pending: () => this.#items.some((item) => item.kind === "steer"),
    take: () => {
      const steered = this.#items.filter((item) => item.kind === "steer");
      this.#items = this.#items.filter((item) => item.kind !== "steer");
      return steered.map(({ text, attachments }) => ({ text, ...(attachments ? { attachments } : {}) }));
    },
  };
}
