/**
 * Questions and notices from tools and hooks (`ctx.confirm`, `ctx.notify`)
 * in the full-screen chat: a question takes the editor's place until it is
 * answered, then stays in the transcript with its answer, as the line chat
 * shows it. Ctrl-C at a question answers no and interrupts the turn.
 */
import type { Prompt } from "../../tools/types.ts";
import type { ChatScreen } from "../chat/index.ts";
import { terminalLine, terminalSafe } from "../terminal-text.ts";
import type { ActivityLine } from "./activity-line.ts";
import type { BottomPanel } from "./bottom-panel.ts";
import { ConfirmModal, type ConfirmAnswer } from "./confirm-modal.ts";
import type { TuiTheme } from "./theme.ts";
import type { Transcript } from "./transcript.ts";

/** What the dialogs use of the screen. */
export interface DialogHost {
  theme: TuiTheme;
  transcript: Transcript;
  bottom: BottomPanel;
  activityLine: ActivityLine;
  autoApprove: boolean;
  render(): void;
  /** Takes the terminal, when nothing has yet. */
  start(): void;
  /** The turn running, if any: its signal answers an open question no, `press` interrupts it. */
  turn(): { signal: AbortSignal; press: () => void } | undefined;
}

export function createTuiDialogs(host: DialogHost): ChatScreen["dialogs"] {
  const { theme, transcript, bottom, activityLine, render } = host;
  const s = theme.style;
  return {
    async confirm(prompt: Prompt, level = 0) {
      host.start();
      const indent = "  ".repeat(level);
      if (host.autoApprove) {
        transcript.line(s.dim(`${indent}✓ ${terminalLine(prompt.title || prompt.body)} (approved by -y)`));
        render();
        return true;
      }
      const turn = host.turn();
      if (turn?.signal.aborted) return false;
      let onAbort = (): void => undefined;
      activityLine.asking = true;
      const answer = await bottom.ask<ConfirmAnswer & { note?: string }>(
        (close) => {
          onAbort = () => close({ yes: false, interrupt: false, note: " (interrupted)" });
          turn?.signal.addEventListener("abort", onAbort, { once: true });
          return new ConfirmModal(theme, prompt.title, prompt.body, close);
        },
        { yes: false, interrupt: false, note: " (interrupted)" },
      );
      turn?.signal.removeEventListener("abort", onAbort);
      activityLine.asking = false;
      transcript.line(`${s.warn("?")} ${s.bold(terminalLine(prompt.title || "Confirm"))}`, indent, indent);
      if (prompt.body) transcript.line(terminalSafe(prompt.body), `${indent}  `, `${indent}  `);
      transcript.line(
        `${s.dim("[y/N]")} ${answer.yes ? s.ok("yes") : s.error("no")}${s.dim(answer.note ?? "")}`,
        `${indent}  `,
      );
      render();
      if (answer.interrupt) host.turn()?.press();
      return answer.yes;
    },
    notify(prompt: Prompt) {
      host.start();
      transcript.notice(
        terminalLine(prompt.title && prompt.body ? `${prompt.title}: ${prompt.body}` : prompt.title || prompt.body),
      );
      render();
    },
  };
}
