/**
 * What the full-screen chat runs: a turn of the conversation (its events
 * drawn, the keys of tui-screen.ts acting on it), the follow-ups queued
 * meanwhile, a `!command`, a switch that can be given up, and the two ways
 * the chat waits for you (the editor, a picker).
 */
import type { RunOutcome } from "../../engine/index.ts";
import { messageOf } from "../../errors.ts";
import { TurnInterrupts } from "../../turn-interrupts.ts";
import type { ChatBackend } from "../chat/index.ts";
import { terminalSafe } from "../terminal-text.ts";
import { runBang } from "./bang-command.ts";
import { attachMentions } from "./file-mentions.ts";
import { attachDroppedImages } from "./image-input.ts";
import { PickerModal, type PickerChoice } from "./picker-modal.ts";
import { interruptedOnAbort, type Input } from "./screen-activity.ts";
import { turnHint } from "./screen-keys.ts";
import type { TuiParts } from "./tui-parts.ts";
import { giveBackQueued } from "./turn-keys.ts";

/** One turn: the message (with what `!command`s printed before it), its events drawn, its end line. */
export async function runTurn(p: TuiParts, backend: ChatBackend, text: string): Promise<void> {
  const { transcript, s, state } = p;
  let session: { id: string; created: boolean };
  try {
    session = backend.ensureSession();
    attachMentions(text, backend, transcript, s);
    attachDroppedImages(text, backend, transcript, s);
  } catch (error) {
    transcript.line(s.error(`error: ${terminalSafe(messageOf(error))}`));
    return;
  }
  p.echo(text);
  if (session.created) transcript.line(s.dim(`session ${session.id}`));
  const interrupts = new TurnInterrupts();
  state.activity = { kind: "turn", press: () => press(p, interrupts), signal: interrupts.signal, queues: true };
  p.activityLine.set("waiting for the model", turnHint(p.queue));
  p.render();
  const startedAt = Date.now();
  const outcome = await turnOutcome(p, backend, [...state.carried.splice(0), text].join("\n\n"), interrupts);
  p.feed.endTurn(outcome, Date.now() - startedAt);
  // Nothing queued is sent after an interrupt: it goes back into the editor.
  if (outcome.reason === "interrupted") giveBackQueued(p.editor, backend);
  p.render();
}

/** Esc or Ctrl-C during a turn: interrupts, then cuts the afterRun hooks short, then leaves at once. */
function press(p: TuiParts, interrupts: TurnInterrupts): void {
  if (interrupts.press() === "hard") {
    p.tui.stop();
    p.options.onHardExit();
  }
  const first = interrupts.presses === 1;
  p.activityLine.set(
    first ? "interrupting" : "ending the afterRun hooks",
    first ? "Esc again cuts the afterRun hooks short" : "Esc again quits at once",
  );
  p.render();
}

/** The conversation's run of `prompt`, its events drawn; a failure to start is an outcome too. */
async function turnOutcome(
  p: TuiParts,
  backend: ChatBackend,
  prompt: string,
  interrupts: TurnInterrupts,
): Promise<RunOutcome> {
  const { transcript, s } = p;
  try {
    return await backend.runTurn(prompt, {
      emit: (event) => {
        if (event.type === "steer" && event.parent === undefined) {
          p.activityLine.hint(turnHint(p.queue));
          transcript.line(s.bold(terminalSafe(event.text)), s.accent("> "), s.dim("… "));
        }
        p.feed.event(event);
        p.status.event(event);
        p.activityLine.event(event);
        p.render();
      },
      signal: interrupts.signal,
      finalSignal: interrupts.finalSignal,
    });
  } catch (error) {
    const reason = interrupts.signal.aborted ? "interrupted" : "error";
    return { reason, message: messageOf(error), usage: { inputTokens: 0, outputTokens: 0 } };
  } finally {
    p.state.activity = { kind: "idle" };
    p.activityLine.clear();
    p.status.refresh();
  }
}

/** The follow-ups queued during a turn, each a turn of its own, in order. */
export async function runFollowUps(p: TuiParts, backend: ChatBackend): Promise<void> {
  for (let next = backend.nextFollowUp(); next && !p.state.stopped; next = backend.nextFollowUp()) {
    await runTurn(p, backend, next.text);
  }
}

/** `!command`: run with the keys of a turn (Esc or Ctrl-C ends it); what it printed goes with the next message. */
export async function runBangCommand(p: TuiParts, command: string, cwd: string): Promise<void> {
  p.echo(`!${command}`);
  const controller = new AbortController();
  p.state.activity = { kind: "turn", press: () => controller.abort(), signal: controller.signal, queues: false };
  p.activityLine.set("shell", "Esc or Ctrl-C interrupts");
  try {
    p.state.carried.push(await runBang(command, cwd, p.transcript, p.theme, p.render, controller.signal));
  } finally {
    p.state.activity = { kind: "idle" };
    p.activityLine.clear();
    p.status.refresh();
  }
}

/** A command's switch (an agent to prepare, MCP servers to start): Ctrl-C, or a signal, gives up on it. */
export async function interruptible<T>(p: TuiParts, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  p.state.activity = { kind: "switch", abort: () => controller.abort() };
  p.activityLine.set("switching", "Ctrl-C gives up");
  p.render();
  const gaveUp = interruptedOnAbort(controller.signal);
  try {
    if (p.state.stopped) controller.abort();
    return await Promise.race([work(controller.signal), gaveUp]);
  } finally {
    p.state.activity = { kind: "idle" };
    p.activityLine.clear();
  }
}

/** The editor's next input: a message or command, or a key that ends the reading. */
export function readInput(p: TuiParts): Promise<Input> {
  return new Promise((resolve) => {
    p.state.activity = {
      kind: "editor",
      finish: (input) => {
        p.state.activity = { kind: "idle" };
        if (input.kind === "text") p.editor.setText("");
        resolve(input);
      },
    };
    p.render();
  });
}

/** A picker in the editor's place; the pick (or the cancel) is written in the transcript. */
export function pick(
  p: TuiParts,
  message: string,
  choices: PickerChoice[],
  initial?: string,
  listKeys = false,
): Promise<string | undefined> {
  const { theme, tui, transcript, s } = p;
  p.start();
  if (choices.length === 0) return Promise.resolve(undefined);
  return p.bottom
    .ask<string | undefined>(
      (close) => new PickerModal(theme, message, choices, initial, () => tui.terminal.rows, close, listKeys),
      undefined,
    )
    .then((value) => {
      transcript.line(value === undefined ? s.warn(`✗ ${message} (cancelled)`) : `${s.ok("✔")} ${message} ${value}`);
      return value;
    });
}
