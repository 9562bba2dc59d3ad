/**
 * The full-screen chat's conversation loop: the banner (or the recap of a
 * resumed session), then the editor read again and again, each input a
 * message, a `!command` or a slash command, until you quit or a signal
 * ends the chat; the last line says how to come back.
 */
import {
  modelText,
  parseInput,
  runChatCommand,
  showResumed,
  type ChatBackend,
  type ChatEnd,
  type CommandContext,
} from "../chat/index.ts";
import { terminalLine } from "../terminal-text.ts";
import { argumentValues } from "./argument-values.ts";
import { bangCommand } from "./bang-command.ts";
import { WorkspaceFiles } from "./file-mentions.ts";
import { keysText } from "./keys.ts";
import type { Input } from "./screen-activity.ts";
import { PALETTE } from "./shortcuts.ts";
import { osc52, osc52Refusal } from "./terminal-hand-off.ts";
import type { TuiParts } from "./tui-parts.ts";
import { interruptible, pick, readInput, runBangCommand, runFollowUps, runTurn } from "./tui-turns.ts";

/** Runs the conversation until it ends: `quit` (you), or `signal`. */
export async function converse(p: TuiParts, backend: ChatBackend, resumed: boolean): Promise<ChatEnd> {
  const context = openConversation(p, backend, resumed);
  let armed = false;
  while (!p.state.stopped) {
    const input = await readInput(p);
    if (input.kind === "eof" || input.kind === "cancelled") break;
    if (input.kind === "interrupt") {
      if (input.hadInput) armed = false;
      else if (armed) break;
      else {
        armed = true;
        p.transcript.line(p.s.dim("(press Ctrl-C again to quit, or Ctrl-D)"));
      }
      continue;
    }
    armed = false;
    if (await handleInput(p, backend, context, input)) break;
    p.render();
  }
  // The last frame stays on the terminal: it says how to come back.
  const id = backend.status().sessionId;
  if (id) p.transcript.line(p.s.dim(`to continue this conversation: rienda -s ${id}`));
  return p.state.stopped ? "signal" : "quit";
}

/** The conversation's start: completion, the commands' context, the banner and the recap or notices. */
function openConversation(p: TuiParts, backend: ChatBackend, resumed: boolean): CommandContext {
  const { s, transcript, tui } = p;
  p.state.backend = backend;
  p.status.refresh();
  const files = new WorkspaceFiles(
    () => backend.status().workdir,
    (command) => argumentValues(backend, command),
  );
  p.editor.setAutocompleteProvider(files.provider());
  const context: CommandContext = {
    backend,
    renderer: p.commandOutput.renderer,
    style: s,
    width: () => tui.terminal.columns,
    pick: (message, choices, initial) => pick(p, message, choices, initial),
    interruptible: (work) => interruptible(p, work),
    keys: keysText,
    copy: (text) => {
      const refused = osc52Refusal(process.env);
      if (refused === undefined) tui.terminal.write(osc52(text));
      return refused;
    },
  };
  const st = backend.status();
  transcript.line(s.bold(`rienda ${p.options.version} · agent ${st.agent} · model ${modelText(st)}`));
  transcript.line(s.dim("Enter sends · Alt-Enter new line · @ file · Ctrl-P commands · /hotkeys"));
  if (resumed) showResumed(context);
  else for (const notice of backend.notices()) transcript.notice(terminalLine(notice));
  p.commandOutput.end();
  return context;
}

/** One input of the editor (not an interrupt or the end); true when it quits the chat. */
async function handleInput(
  p: TuiParts,
  backend: ChatBackend,
  context: CommandContext,
  input: Exclude<Input, { kind: "eof" | "cancelled" | "interrupt" }>,
): Promise<boolean> {
  const { s, transcript } = p;
  if (input.kind === "command") {
    const name = input.name === "palette" ? await pick(p, "Which command?", [...PALETTE]) : input.name;
    if (name === "expand") transcript.toggleExpanded();
    else if (name === "rename") p.editor.setText("/rename ");
    else if (name !== undefined) return command(p, context, name, "", `/${name}`);
    return false;
  }
  const bang = bangCommand(input.text);
  if (bang !== undefined) {
    await runBangCommand(p, bang, backend.status().workdir);
    return false;
  }
  const parsed = parseInput(input.text);
  if (parsed.kind === "message") {
    await runTurn(p, backend, parsed.text);
    await runFollowUps(p, backend);
  } else if (parsed.kind === "command") return command(p, context, parsed.name, parsed.argument, input.text);
  else if (parsed.kind === "misused") transcript.line(s.warn(`usage: ${parsed.usage}`));
  else if (parsed.kind === "unknown") {
    const hint = parsed.suggestion ? `did you mean /${parsed.suggestion}? ` : "";
    transcript.line(s.warn(`unknown command /${parsed.name}: ${hint}/help lists the commands`));
  }
  return false;
}

/** Runs a slash command as typed (`shown`), its report under it; true when it quits the chat. */
async function command(
  p: TuiParts,
  context: CommandContext,
  name: string,
  argument: string,
  shown: string,
): Promise<boolean> {
  p.echo(shown);
  const effect = await runChatCommand(name, argument, context);
  p.commandOutput.end();
  p.status.refresh();
  return effect === "quit";
}
