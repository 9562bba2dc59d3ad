/**
 * One ACP session: one Rienda conversation (a Conversation of its own, so
 * its own agent, model, tools and session file) and the turn going on in
 * it. The ACP session id is the Rienda session id, so `session/load` and
 * `rienda -s ID` name the same conversation.
 *
 * One turn at a time; `cancel` is the chats' interrupt: the first aborts
 * the turn, a second also cuts its afterRun hooks short.
 */
import type { ContentBlock, SessionUpdate } from "@agentclientprotocol/sdk";
import { attachmentFromBytes } from "../../attachments/index.ts";
import { RiendaError, userMessage } from "../../errors.ts";
import type { RunOutcome } from "../../engine/index.ts";
import type { Prompt } from "../../runtime/index.ts";
import type { Conversation } from "../../conversation/index.ts";
import type { ConfirmOrigin, Dialogs } from "../../compose/index.ts";
import { historyUpdates } from "./history-updates.ts";
import { askPermission, type PermissionWire } from "./permission.ts";
import { promptParts } from "./prompt-content.ts";
import { promptEnd, type PromptEnd } from "./stop-reason.ts";
import { TurnUpdates } from "./turn-updates.ts";

/** The turn going on. */
interface Turn {
  abort: AbortController;
  final: AbortController;
  /** The client cancelled it (the answer is then `cancelled`, whatever the run says). */
  cancelled: boolean;
  updates: TurnUpdates;
}

/** What a session is told of the connection. */
export interface SessionOptions {
  workdir: string;
  /** `-y`: every question is answered yes without asking. */
  autoApprove: boolean;
  /** The client shows `notice` updates. */
  notices: boolean;
}

export class AcpSession {
  readonly id: string;
  readonly backend: Conversation;
  readonly #wire: PermissionWire;
  readonly #options: SessionOptions;
  #turn: Turn | undefined;
  /** Settles when the turn going on has ended (its session entries written). */
  #turnDone: Promise<unknown> = Promise.resolve();
  /** Shown when the next turn starts, with the conversation's own notices. */
  readonly #pending: string[] = [];

  private constructor(backend: Conversation, wire: PermissionWire, options: SessionOptions) {
    this.backend = backend;
    this.#wire = wire;
    this.#options = options;
    this.id = backend.ensureSession().id;
  }

  /**
   * Opens a session over the conversation `open` builds; `wire` reaches the
   * client once the session id is known (the backend's questions need it).
   */
  static async open(
    open: (dialogs: Dialogs) => Promise<Conversation>,
    wireFor: (sessionId: () => string) => PermissionWire,
    options: SessionOptions,
  ): Promise<AcpSession> {
    let session: AcpSession | undefined;
    const wire = wireFor(() => session?.id ?? "");
    const dialogs: Dialogs = {
      confirm: (prompt: Prompt, _level?: number, origin?: ConfirmOrigin) =>
        session?.confirm(prompt, origin) ?? Promise.resolve(false),
      notify: (prompt: Prompt) => session?.send(session.#notice(prompt.title, prompt.body)),
    };
    session = new AcpSession(await open(dialogs), wire, options);
    return session;
  }

  /** Whether a turn is going on. */
  get busy(): boolean {
    return this.#turn !== undefined;
  }

  /** A switch (agent, model, thinking) under way: no prompt may start meanwhile, nor another switch. */
  switching = false;

  /** Runs one prompt to its end. A prompt the conversation refuses (a file it cannot take) is a RiendaError, and nothing runs. */
  prompt(blocks: readonly ContentBlock[]): Promise<PromptEnd> {
    if (this.#turn)
      throw new RiendaError("usage", "a prompt is already running in this session: cancel it first (session/cancel)");
    if (this.switching)
      throw new RiendaError(
        "usage",
        "a switch of agent, model or thinking level is under way in this session: send the prompt once it is answered",
      );
    const text = this.#attach(blocks);
    const done = this.#run(text);
    this.#turnDone = done.catch(() => undefined);
    return done;
  }

  async #run(text: string): Promise<PromptEnd> {
    const turn: Turn = {
      abort: new AbortController(),
      final: new AbortController(),
      cancelled: false,
      updates: new TurnUpdates(this.#turnContext()),
    };
    this.#turn = turn;
    try {
      for (const notice of [...this.#pending.splice(0), ...this.backend.notices()])
        this.send(turn.updates.notice(notice, undefined, "info"));
      let outcome: RunOutcome;
      try {
        outcome = await this.backend.runTurn(text, {
          emit: (event) => {
            for (const update of turn.updates.map(event)) this.send(update);
          },
          signal: turn.abort.signal,
          finalSignal: turn.final.signal,
        });
      } catch (error) {
        if (turn.abort.signal.aborted) return { stopReason: "cancelled" };
        return { failure: userMessage(error) };
      }
      for (const update of turn.updates.ending(outcome)) this.send(update);
      return promptEnd(outcome, turn.cancelled, turn.updates.lastStopReason);
    } finally {
      this.#turn = undefined;
    }
  }

  /** `session/cancel`: the first aborts the turn, a second its afterRun hooks too; nothing without a turn. */
  cancel(): void {
    const turn = this.#turn;
    if (!turn) return;
    turn.cancelled = true;
    if (turn.abort.signal.aborted) turn.final.abort();
    else turn.abort.abort();
  }

  /** The session's history, as updates (`session/load`). */
  replay(): void {
    for (const update of historyUpdates(this.backend.history(), this.backend.status().workdir)) this.send(update);
  }

  /**
   * Ends the turn going on as an interrupt would (its afterRun hooks get
   * their chance, as in the chats), waits for it to write its end, then
   * closes the conversation. `hurry` (a second interrupt) cuts the hooks short.
   */
  async close(hurry: AbortSignal): Promise<void> {
    const turn = this.#turn;
    if (turn) {
      turn.abort.abort();
      if (hurry.aborted) turn.final.abort();
      else hurry.addEventListener("abort", () => turn.final.abort(), { once: true });
      await this.#turnDone;
    }
    this.backend.close();
  }

  /** A `ctx.confirm` of the turn: asked of the client, or yes with `-y`; no when no turn runs. */
  confirm(prompt: Prompt, origin: ConfirmOrigin | undefined): Promise<boolean> {
    if (this.#options.autoApprove) return Promise.resolve(true);
    const turn = this.#turn;
    if (!turn || turn.abort.signal.aborted) return Promise.resolve(false);
    return askPermission(this.#wire, this.id, prompt, origin, turn.abort.signal);
  }

  /** Sends one update. */
  send(update: SessionUpdate): void {
    this.#wire.update(update);
  }

  /** A notice for the start of the next turn. */
  noticeNextTurn(text: string): void {
    this.#pending.push(text);
  }

  /** Attaches the prompt's files; returns its text. Nothing stays attached when one is refused. */
  #attach(blocks: readonly ContentBlock[]): string {
    const parts = promptParts(blocks);
    const texts = [parts.text];
    this.backend.dropAttachments();
    try {
      for (const file of parts.files) {
        if ("bytes" in file) {
          this.backend.attachBlock(attachmentFromBytes(file.bytes, file.name, `attachment "${file.name}"`));
          continue;
        }
        try {
          this.backend.attach(file.path);
        } catch {
          // A link the model can still follow with its tools is named instead.
          texts.push(file.fallback);
        }
      }
    } catch (error) {
      this.backend.dropAttachments();
      throw error;
    }
    return texts.filter((text) => text !== "").join("\n\n");
  }

  #turnContext(): { workdir: string; notices: boolean; contextWindow?: number } {
    const window = this.backend.status().contextWindow;
    return {
      workdir: this.#options.workdir,
      notices: this.#options.notices,
      ...(window !== undefined ? { contextWindow: window } : {}),
    };
  }

  #notice(title: string, body: string | undefined): SessionUpdate {
    return new TurnUpdates(this.#options).notice(title, body, "info");
  }
}
