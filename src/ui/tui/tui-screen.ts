/**
 * The full-screen chat (`rienda` in a terminal that can take it): the
 * transcript, the editor (or a question in its place) and the status
 * line, drawn by pi-tui, which redraws only the lines that changed. The
 * same ChatScreen as the line chat (ui/chat), over the same backend and
 * the same engine events, and the same slash commands (ui/chat's
 * runChatCommand, its reports drawn into the transcript).
 *
 * Keys: Enter sends; Alt-Enter, Shift-Enter or `\` then Enter go to a new
 * line. During a turn Esc or Ctrl-C interrupts it (a second also cuts its
 * afterRun hooks short, a third leaves at once), Enter queues what you
 * type and Ctrl-S steers it into the turn. At the editor Ctrl-C clears the
 * text, twice at an empty editor quits, as does Ctrl-D.
 *
 * Its parts are tui-parts.ts; what it runs, tui-turns.ts; its loop,
 * tui-converse.ts. This module is the ChatScreen they make.
 */
import { modelQuestion, type ChatScreen, type ChatScreenOptions } from "../chat/index.ts";
import { terminalLine } from "../terminal-text.ts";
import { converse } from "./tui-converse.ts";
import { createTuiDialogs } from "./tui-dialogs.ts";
import { createTuiParts } from "./tui-parts.ts";
import { pick } from "./tui-turns.ts";

/** Builds the full-screen chat; the terminal is taken at the first thing it shows. */
export function createTuiScreen(options: ChatScreenOptions): ChatScreen {
  const p = createTuiParts(options);
  const { state } = p;
  const dialogs = createTuiDialogs({
    theme: p.theme,
    transcript: p.transcript,
    bottom: p.bottom,
    activityLine: p.activityLine,
    autoApprove: options.autoApprove,
    render: p.render,
    start: p.start,
    turn: () => (state.activity.kind === "turn" ? state.activity : undefined),
  });
  return {
    dialogs,
    pickAgent(agents) {
      const choices = agents.map((a) => ({ value: a.id, label: `${a.id} — ${terminalLine(a.description)}` }));
      return pick(p, "Which agent?", choices, undefined, true);
    },
    pickModel(models, agentId) {
      const choices = models.map((m) => ({ value: m, label: terminalLine(m) }));
      return pick(p, modelQuestion(agentId), choices, undefined, true);
    },
    async run(backend, { resumed }) {
      p.start();
      try {
        return await converse(p, backend, resumed);
      } finally {
        // The last frame stays on the terminal; the cursor goes below it.
        p.tui.requestRender(true);
        await new Promise((resolve) => setTimeout(resolve, 20));
        p.tui.stop();
        state.started = false;
      }
    },
    close() {
      if (state.started) p.tui.stop();
      state.started = false;
    },
    stop() {
      state.stopped = true;
      p.bottom.cancel();
      const activity = state.activity;
      if (activity.kind === "editor") activity.finish({ kind: "cancelled" });
      else if (activity.kind === "turn") activity.press();
      else if (activity.kind === "switch") activity.abort();
    },
  };
}
