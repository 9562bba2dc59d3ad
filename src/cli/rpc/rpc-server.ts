/**
 * The state of one `rienda rpc` process: the commands a client sends, the
 * run they start, the answers and events written back (docs/rpc.md). One
 * run at a time; `steer` sends a message into it and `follow_up` queues
 * prompts for after it (the conversation's queue); `abort` is the
 * interrupt of `rienda run` (a second one also cuts afterRun hooks short);
 * a `ctx.confirm` of the run becomes a `confirm_request` event answered by
 * `confirm_answer`. Every command gets exactly one response; nothing a
 * client sends ends the process but `shutdown` and the end of stdin.
 */
import { userMessage } from "../../errors.ts";
import type { EngineEvent } from "../../engine/index.ts";
import type { Prompt } from "../../tools/types.ts";
import type { Conversation as ChatBackend } from "../../conversation/index.ts";
import { TurnInterrupts } from "../../turn-interrupts.ts";
import { jsonWithControlsEscaped, noticeEvent } from "../../ui/index.ts";
import type { ConfirmOrigin } from "../../compose/index.ts";
import {
  isRefusal,
  readCommand,
  RPC_VERSION,
  type CommandId,
  type RpcCommand,
  type RpcErrorCode,
} from "./rpc-protocol.ts";
import { readCommandAttachments } from "./rpc-attachments.ts";
import { answerQuery } from "./rpc-queries.ts";
import { RpcConfirms } from "./rpc-confirms.ts";
import { runTurnAsJson, taggedRunOutput, type RpcWire } from "./rpc-run.ts";

/** A command that carries a message: a prompt, a follow-up, a steer. */
type MessageCommand = Extract<RpcCommand, { type: "prompt" | "follow_up" | "steer" }>;

/** The run (or compaction) going on. */
interface Running {
  id: CommandId;
  /** The escalation of `abort`s: the first interrupts, the second cuts the afterRun hooks short. */
  interrupts: TurnInterrupts;
  done: Promise<void>;
}

/**
 * The commands refused while a run or a switch goes on, and what their
 * refusal (`busy`) tells the client to do.
 */
const WAIT_FOR_THE_RUN: Partial<Record<RpcCommand["type"], string>> = {
  set_model: "wait for the run to end (or abort it) before switching",
  set_agent: "wait for the run to end (or abort it) before switching",
  set_thinking: "wait for the run to end (or abort it) before switching",
  fork: "wait for the run to end (or abort it) before moving to another session",
  switch_session: "wait for the run to end (or abort it) before moving to another session",
  new_session: "wait for the run to end (or abort it) first",
  compact: "wait for the run to end (or abort it) before compacting",
};

export class RpcServer {
  readonly #wire: RpcWire;
  readonly #autoApprove: boolean;
  #backend: ChatBackend | undefined;
  #running: Running | undefined;
  /** A switch (agent, model) in progress: no run may start meanwhile. */
  #switching = false;
  /** The id of the switch in progress, in flight until its response. */
  #switchingId: CommandId | undefined;
  /** The conversation's queued follow-ups → the commands that queued them (their runs carry those ids). */
  readonly #followUps = new Map<number, CommandId>();
  readonly #confirms = new RpcConfirms((value) => this.#send(value));
  #ending: Promise<void> | undefined;
  readonly #ended: Promise<void>;
  #resolveEnded!: () => void;

  constructor(wire: RpcWire, options: { autoApprove: boolean }) {
    this.#wire = wire;
    this.#autoApprove = options.autoApprove;
    this.#ended = new Promise((resolve) => (this.#resolveEnded = resolve));
  }

  /** Resolves once `shutdown` or the end of stdin has ended everything. */
  get ended(): Promise<void> {
    return this.#ended;
  }

  /** The backend's dialogs: `ctx.confirm` asks the client, `ctx.notify` is a notice event. */
  readonly dialogs = {
    confirm: (prompt: Prompt, _level?: number, origin?: ConfirmOrigin): Promise<boolean> => {
      if (this.#autoApprove) return Promise.resolve(true);
      const running = this.#running;
      if (!running || running.interrupts.signal.aborted) return Promise.resolve(false);
      return this.#confirms.ask(running.id, prompt, origin);
    },
    notify: (prompt: Prompt): void => {
      this.#send({ ...noticeEvent(prompt), command_id: this.#running?.id ?? null });
    },
  };

  /** The first line: the protocol version and where the conversation stands. */
  ready(backend: ChatBackend, version: string): void {
    this.#backend = backend;
    const status = backend.status();
    this.#send({
      type: "ready",
      rpc_version: RPC_VERSION,
      version,
      ...this.#model(),
      session_id: status.sessionId,
      workdir: status.workdir,
    });
  }

  /** A line longer than the reader's cap (rpc-lines.ts), dropped: answered as a line that could not be read. */
  refuseLongLine(maxBytes: number): void {
    this.#fail(
      null,
      null,
      "line_too_long",
      `the line is longer than ${maxBytes.toLocaleString("en-US")} bytes; it was dropped up to its end, and the next line is read as usual`,
    );
  }

  /** One line from the client. */
  handle(line: string): void {
    if (line.trim() === "") return;
    const command = readCommand(line);
    if (isRefusal(command)) {
      this.#fail(command.id, command.command, command.code, command.message);
      return;
    }
    if (this.#ending) {
      this.#fail(command.id, command.type, "refused", "the process is shutting down");
      return;
    }
    if (this.#inFlight(command.id)) {
      this.#fail(
        command.id,
        command.type,
        "duplicate_id",
        `command ${JSON.stringify(command.id)} is still in flight (its run or its response is not over): give each command an id of its own`,
      );
      return;
    }
    try {
      this.#dispatch(command);
    } catch (error) {
      this.#fail(command.id, command.type, "refused", userMessage(error));
    }
  }

  /** The end of stdin, or `shutdown`: the current run ends as interrupted, queued prompts are dropped. */
  end(beforeExit?: () => void): Promise<void> {
    this.#ending ??= (async () => {
      this.#backend?.clearQueue();
      this.#followUps.clear();
      const running = this.#running;
      if (running) {
        if (!running.interrupts.signal.aborted) running.interrupts.press();
        this.#confirms.cancelAll();
        await running.done;
      }
      // Written before `ended` lets the process go, so the last line is never lost.
      beforeExit?.();
      this.#resolveEnded();
    })();
    return this.#ending;
  }

  /** Whether a command with this id is still going on: the run, a queued follow-up, a switch. */
  #inFlight(id: CommandId): boolean {
    const pending = [this.#running?.id, this.#switchingId, ...this.#followUps.values()];
    return pending.some((other) => other !== undefined && other === id);
  }

  /** Answers one command read whole, by its type. */
  #dispatch(command: RpcCommand): void {
    const backend = this.#backend!;
    const answer = answerQuery(command, backend);
    if (answer) return this.#answerLater(command, answer);
    const wait = WAIT_FOR_THE_RUN[command.type];
    if (wait !== undefined && (this.#running || this.#switching))
      return this.#fail(command.id, command.type, "busy", wait);
    switch (command.type) {
      case "prompt":
        if (this.#running || this.#switching)
          return this.#fail(
            command.id,
            command.type,
            "busy",
            `a run is going on (command ${String(this.#running?.id ?? "switch")}); use steer or follow_up, or abort`,
          );
        return this.#startRun(command);
      case "follow_up":
      case "steer":
        if (!this.#running && !this.#switching) return this.#startRun(command);
        return this.#queueMessage(command);
      case "abort":
        return this.#abort(command);
      case "confirm_answer":
        if (!this.#confirms.answer(command.confirmId, command.answer))
          return this.#fail(
            command.id,
            command.type,
            "unknown_confirm",
            `no confirmation "${command.confirmId}" is waiting for an answer`,
          );
        return this.#ok(command, {});
      case "set_model":
      case "set_agent": {
        const work =
          command.type === "set_model" ? backend.switchModel(command.model) : backend.switchAgent(command.agent);
        return this.#switch(
          command,
          work.then(() => this.#model()),
        );
      }
      case "set_thinking":
        backend.setThinking(command.level);
        return this.#ok(command, this.#model());
      case "fork":
      case "switch_session":
        return this.#switch(
          command,
          command.type === "fork"
            ? backend.fork(command.entryId).then((id) => ({ session_id: id }))
            : backend.resume(command.sessionId).then(() => ({ session_id: command.sessionId })),
        );
      case "new_session":
        backend.newSession();
        this.#followUps.clear();
        return this.#ok(command, {});
      case "compact":
        return this.#startCompaction(command);
      case "get_state":
        return this.#ok(command, this.#state());
      case "shutdown":
        void this.end(() => this.#ok(command, {}));
        return;
    }
  }

  /** `abort`: the run is interrupted (a second one cuts its afterRun hooks short), queued follow-ups are dropped. */
  #abort(command: Extract<RpcCommand, { type: "abort" }>): void {
    const running = this.#running;
    if (!running) return this.#fail(command.id, command.type, "not_running", "no run is going on");
    const dropped = this.#followUps.size;
    this.#backend!.clearQueue();
    this.#followUps.clear();
    running.interrupts.press();
    this.#confirms.cancelAll();
    return this.#ok(command, { command_id: running.id, dropped_follow_ups: dropped });
  }

  /** `get_state`'s data: what is in force, and what is going on or waiting. */
  #state(): Record<string, unknown> {
    const status = this.#backend!.status();
    return {
      ...this.#model(),
      session_id: status.sessionId,
      workdir: status.workdir,
      running: this.#running ? this.#running.id : null,
      queued: this.#followUps.size,
      waiting_confirms: this.#confirms.waiting,
    };
  }

  /**
   * A switch of agent, model or session (fork, switch_session): no run
   * starts meanwhile; its response carries `work`'s data, or `refused`.
   */
  #switch(command: RpcCommand, work: Promise<Record<string, unknown>>): void {
    this.#switching = true;
    this.#switchingId = command.id;
    const done = () => {
      this.#switching = false;
      this.#switchingId = undefined;
    };
    work.then(
      (data) => {
        done();
        this.#ok(command, data);
        this.#next();
      },
      (error: unknown) => {
        done();
        this.#fail(command.id, command.type, "refused", userMessage(error));
        this.#next();
      },
    );
  }

  /** A steer or follow-up while a run goes on: into the conversation's queue, its files read now (refused at once when one cannot be). */
  #queueMessage(command: MessageCommand): void {
    const backend = this.#backend!;
    const attachments = readCommandAttachments(backend, command);
    if (command.type === "steer") {
      backend.steer(command.text, attachments);
      return this.#ok(command, { run: this.#running?.id ?? this.#switchingId ?? null });
    }
    this.#followUps.set(backend.followUp(command.text, attachments), command.id);
    return this.#ok(command, { queued: this.#followUps.size });
  }

  /** Starts a prompt's run; its response says it started, its events follow, run_end last. */
  #startRun(
    command: {
      id: CommandId;
      type: MessageCommand["type"];
      text: string;
      files: string[];
      images: MessageCommand["images"];
    },
    queued = false,
  ): void {
    const backend = this.#backend!;
    if (!queued) {
      // A prompt carries its own files and nothing else: whatever an earlier refused prompt attached is gone.
      backend.dropAttachments();
      try {
        for (const block of readCommandAttachments(backend, command)) backend.attachBlock(block);
      } catch (error) {
        backend.dropAttachments();
        this.#fail(command.id, command.type, "refused", userMessage(error));
        return this.#next();
      }
    }
    const session = backend.ensureSession();
    if (!queued) this.#ok(command, { session_id: session.id, queued: 0 });
    const running: Running = { id: command.id, interrupts: new TurnInterrupts(), done: Promise.resolve() };
    this.#running = running;
    running.done = runTurnAsJson(
      backend,
      command.text,
      running.interrupts,
      taggedRunOutput(this.#wire, running.id),
    ).finally(() => {
      if (this.#running === running) this.#running = undefined;
      this.#next();
    });
  }

  #startCompaction(command: Extract<RpcCommand, { type: "compact" }>): void {
    const backend = this.#backend!;
    const running: Running = { id: command.id, interrupts: new TurnInterrupts(), done: Promise.resolve() };
    this.#running = running;
    const emit = (event: EngineEvent) => this.#send({ command_id: command.id, ...event });
    running.done = backend
      .compact({ emit, signal: running.interrupts.signal })
      .then(
        (compacted) => this.#ok(command, { compacted }),
        (error: unknown) => this.#fail(command.id, command.type, "refused", userMessage(error)),
      )
      .finally(() => {
        if (this.#running === running) this.#running = undefined;
        this.#next();
      });
  }

  /** After a run or a switch: the next queued follow-up, if any (its files were read when it was queued). */
  #next(): void {
    if (this.#running || this.#switching || this.#ending) return;
    const next = this.#backend?.nextFollowUp();
    if (!next) return;
    const id = this.#followUps.get(next.id);
    this.#followUps.delete(next.id);
    if (id === undefined) return;
    this.#startRun({ id, type: "follow_up", text: next.text, files: [], images: [] }, true);
  }

  /** The agent, model and thinking level in force, and the model's levels. */
  #model(): { agent: string; model: string; thinking: string; thinking_levels: string[] } {
    const backend = this.#backend!;
    const status = backend.status();
    return {
      agent: status.agent,
      model: status.model,
      thinking: status.thinking ?? "off",
      thinking_levels: backend.thinkingLevels(),
    };
  }

  /** Answers `command` once `work` settles: its data, or `refused` with its message. */
  #answerLater(command: RpcCommand, work: Promise<Record<string, unknown>>): void {
    work.then(
      (data) => this.#ok(command, data),
      (error: unknown) => this.#fail(command.id, command.type, "refused", userMessage(error)),
    );
  }

  #ok(command: RpcCommand, data: Record<string, unknown>): void {
    this.#send({ type: "response", id: command.id, command: command.type, ok: true, data });
  }

  #fail(id: CommandId | null, command: string | null, code: RpcErrorCode, message: string): void {
    this.#send({ type: "response", id, command, ok: false, error: { code, message } });
  }

  #send(value: Record<string, unknown>): void {
    this.#wire.write(`${jsonWithControlsEscaped(JSON.stringify(value))}\n`);
  }
}
