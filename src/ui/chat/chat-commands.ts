/**
 * The slash commands: each reads or changes the conversation through the
 * backend and reports in a line or two. A refused change (unknown agent,
 * model or session) is shown as an error line and changes nothing.
 */
import { RiendaError, userMessage } from "../../errors.ts";
import type { ChatStyle } from "./chat-style.ts";
import { CHAT_COMMANDS } from "./parse-input.ts";
import type { Choice } from "./prompts.ts";
import { recap } from "./recap.ts";
import { localTime, sessionLines } from "./session-lines.ts";
import { shortArguments } from "./format-lines.ts";
import { modelCommand, modelText, thinkingCommand } from "./model-commands.ts";
import { sessionExtras } from "./session-extras.ts";
import type { CommandContext } from "./command-context.ts";

export type { CommandContext } from "./command-context.ts";
import type { ChatBackend, EndedReason } from "./types.ts";
import { truncateToWidth, wrapText } from "./wrap-text.ts";
import { terminalLine } from "../terminal-text.ts";

/** What the loop does after a command. */
export type CommandEffect = "continue" | "quit";

/** How many past steps a resumed conversation shows. */
const RECAP_ITEMS = 6;

/** Runs one command; never throws (failures are shown). */
export async function runChatCommand(name: string, argument: string, ctx: CommandContext): Promise<CommandEffect> {
  try {
    return await dispatch(name, argument, ctx);
  } catch (error) {
    if (error instanceof RiendaError && error.code === "interrupted")
      ctx.renderer.line(ctx.style.warn(`interrupted: /${name} changed nothing`));
    else ctx.renderer.paragraph(`error: ${userMessage(error)}`, (t) => ctx.style.error(t));
    return "continue";
  }
}

async function dispatch(name: string, argument: string, ctx: CommandContext): Promise<CommandEffect> {
  const { backend, renderer, style } = ctx;
  if (await sessionExtras(name, argument, ctx)) return "continue";
  switch (name) {
    case "help":
      renderer.line(
        ctx.keys
          ? `${helpText(style, ctx.width(), true)}\nKeys:\n${ctx.keys(style, ctx.width())}`
          : helpText(style, ctx.width()),
      );
      return "continue";
    case "hotkeys":
      renderer.line(ctx.keys ? ctx.keys(style, ctx.width()) : lineChatKeys(style, ctx.width()));
      return "continue";
    case "exit":
      return "quit";
    case "new":
      backend.newSession();
      renderer.line(
        style.dim(
          `new session: your next message starts it (agent ${backend.status().agent}, model ${modelText(backend.status())})`,
        ),
      );
      return "continue";
    case "sessions":
      showSessions(ctx);
      return "continue";
    case "file": {
      if (argument !== "") {
        const row = backend.attach(argument);
        renderer.line(style.ok(`attached ${row.name} (${row.description}) to your next message`));
        return "continue";
      }
      const pending = backend.pendingAttachments();
      renderer.line(
        pending.length === 0
          ? style.dim("nothing is attached; /file PATH attaches a file to your next message")
          : pending.map((row) => `attached: ${row.name} (${row.description})`).join("\n"),
      );
      return "continue";
    }
    case "resume": {
      const id = argument || (await pickSession(ctx));
      if (!id) return "continue";
      await ctx.interruptible((signal) => backend.resume(id, signal));
      showResumed(ctx);
      return "continue";
    }
    case "fork": {
      const from = backend.status().sessionId;
      const id = await ctx.interruptible((signal) => backend.fork(undefined, signal));
      renderer.line(
        style.ok(`forked session ${from} into ${id}: your next message continues here; ${from} stays as it was`),
      );
      return "continue";
    }
    case "tree": {
      const id = argument || (await pickBranchPoint(ctx));
      if (!id) return "continue";
      const { prompt } = await ctx.interruptible((signal) => backend.continueAt(id, signal));
      renderer.line(
        style.ok(
          prompt === undefined
            ? `continuing from ${id}: your next message starts a new branch after it`
            : `continuing before ${id}: your next message takes the place of that prompt (a new branch)`,
        ),
      );
      if (prompt !== undefined) renderer.paragraph(prompt, (t) => style.dim(t), style.accent("was: "));
      return "continue";
    }
    case "export": {
      if (argument === "") {
        renderer.line(style.warn("usage: /export PATH (a new file; rienda sessions import PATH reads it back)"));
        return "continue";
      }
      renderer.line(style.ok(`exported session ${backend.status().sessionId} to ${backend.exportTo(argument)}`));
      return "continue";
    }
    case "agent": {
      const id =
        argument ||
        (await ctx.pick("Switch to which agent?", agentChoices(backend, ctx.width()), backend.status().agent));
      if (!id) return "continue";
      await ctx.interruptible((signal) => backend.switchAgent(id, signal));
      const status = backend.status();
      renderer.line(style.ok(`agent: ${status.agent} (model ${modelText(status)})`));
      for (const notice of backend.notices()) renderer.notice(notice);
      return "continue";
    }
    case "model":
      await modelCommand(argument, ctx);
      return "continue";
    case "thinking":
      await thinkingCommand(argument, ctx);
      return "continue";
    case "tools":
      showTools(ctx);
      return "continue";
    case "show-thinking":
      renderer.expandThinking = !renderer.expandThinking;
      renderer.line(style.dim(renderer.expandThinking ? "thinking: shown in full" : "thinking: collapsed to one line"));
      return "continue";
  }
  renderer.line(style.error(`/${name} is not handled`));
  return "continue";
}

/** The /help text: commands, then the line chat's keys (not with `commandsOnly`), wrapped to `width` with the descriptions in a column. */
export function helpText(style: ChatStyle, width = 80, commandsOnly = false): string {
  const commands = [
    "Commands:",
    twoColumns(
      CHAT_COMMANDS.map((c) => [c.usage, c.summary]),
      style,
      width,
    ),
  ];
  return [...commands, ...(commandsOnly ? [] : [lineChatKeys(style, width)])].join("\n");
}

/** The line chat's keys, for its /help and /hotkeys. */
function lineChatKeys(style: ChatStyle, width: number): string {
  const keys: [string, string][] = [
    ["Enter", "send"],
    ["\\ at the end of a line", "new line (so does Alt-Enter; pasted text keeps its lines)"],
    ["Ctrl-C", "interrupt the answer; clear the line; twice at an empty prompt: quit"],
    ["Ctrl-D", "quit"],
  ];
  return ["Keys:", twoColumns(keys, style, width)].join("\n");
}

/** Two columns: the left one bold, the right one wrapped under itself. */
export function twoColumns(rows: [string, string][], style: ChatStyle, width: number): string {
  const left = Math.max(...rows.map(([l]) => l.length));
  const indent = " ".repeat(left + 4);
  return rows
    .map(([l, r]) => {
      const wrapped = wrapText(r, Math.max(width, left + 24), indent).trimEnd();
      return `  ${style.bold(l.padEnd(left))}  ${wrapped.slice(indent.length)}`;
    })
    .join("\n");
}

function showSessions(ctx: CommandContext): void {
  const rows = ctx.backend.listSessions();
  if (rows.length === 0) {
    ctx.renderer.line(ctx.style.dim("no sessions in this workspace yet"));
    return;
  }
  const [header, ...lines] = sessionLines(rows, ctx.backend.status().sessionId, ctx.width());
  ctx.renderer.line([ctx.style.dim(header!), ...lines].join("\n"));
}

async function pickSession(ctx: CommandContext): Promise<string | undefined> {
  const rows = ctx.backend.listSessions();
  if (rows.length === 0) {
    ctx.renderer.line(ctx.style.dim("no sessions in this workspace yet"));
    return undefined;
  }
  const width = ctx.width() - 6;
  const choices: Choice[] = rows.map((r) => ({
    value: r.id,
    label: truncateToWidth(`${localTime(r.updatedAt)}  ${r.agent}  ${r.title || "(untitled)"}  (${r.id})`, width),
  }));
  return ctx.pick("Resume which session?", choices);
}

/** The /tree picker: every message of every branch, the active leaf chosen first. */
async function pickBranchPoint(ctx: CommandContext): Promise<string | undefined> {
  const rows = ctx.backend.treeRows();
  if (rows.length === 0) {
    ctx.renderer.line(ctx.style.dim("no messages yet: the session starts with your first message"));
    return undefined;
  }
  const width = ctx.width() - 6;
  const leaf = [...rows].reverse().find((r) => r.active)?.id;
  // Ids and prompts come from the file: shown, never acted on by the terminal.
  // The id is what /tree ID takes, not what a person recognises: the message's time stands in its place.
  const choices: Choice[] = rows.map((r) => ({
    value: r.id,
    label: truncateToWidth(
      terminalLine(r.text.replace(r.id, r.createdAt ? localTime(r.createdAt).slice(5) : "")),
      width,
    ),
  }));
  return ctx.pick("Continue from which message? (* the active branch)", choices, leaf);
}

/** How the recap marks a request that ended without an answer. */
const ENDED_TEXT: Record<EndedReason, string> = {
  interrupted: "interrupted",
  error: "error: the request failed",
  limit: "stopped: the run reached a limit",
};

function agentChoices(backend: ChatBackend, width: number): Choice[] {
  const current = backend.status().agent;
  return backend.listAgents().map((a) => ({
    value: a.id,
    label: truncateToWidth(`${a.id}${a.id === current ? " (current)" : ""} — ${a.description}`, width - 6),
  }));
}

/** The line shown after resuming, and the last steps of the conversation. */
export function showResumed(ctx: CommandContext): void {
  const { backend, renderer, style } = ctx;
  const status = backend.status();
  const history = recap(backend.history(), RECAP_ITEMS);
  renderer.line(style.ok(`resumed session ${status.sessionId} (agent ${status.agent}, model ${modelText(status)})`));
  if (history.omitted > 0) renderer.line(style.dim(`… ${history.omitted} earlier steps`));
  for (const item of history.items) {
    if (item.kind === "user") renderer.paragraph(item.text, (t) => style.dim(t), style.accent("> "));
    else if (item.kind === "assistant") {
      if (item.text) renderer.paragraph(item.text, (t) => style.dim(t));
      if (item.interrupted)
        renderer.line(style.dim(item.interrupted === "limit" ? "(cut short by a limit)" : "(interrupted)"));
    } else if (item.kind === "ended") renderer.line(style.dim(ENDED_TEXT[item.reason]));
    else if (item.kind === "condensed") renderer.line(style.dim("… earlier turns condensed into a summary"));
    else renderer.line(style.dim(truncateToWidth(`• ${item.name} ${shortArguments(item.arguments)}`, ctx.width())));
  }
  for (const notice of backend.notices()) renderer.notice(notice);
}

function showTools(ctx: CommandContext): void {
  const { backend, renderer, style } = ctx;
  const tools = backend.tools();
  const hooks = backend.hooks();
  if (tools.length === 0) renderer.line(style.dim(`agent ${backend.status().agent} has no tools`));
  else {
    // Names come from directories and MCP servers: shown, like descriptions, without acting on control characters.
    const names = tools.map((t) => terminalLine(t.name));
    const width = Math.max(...names.map((name) => name.length));
    const lines = tools.map(
      (t, i) =>
        `  ${style.bold(names[i]!.padEnd(width))}  ${truncateToWidth(firstLine(t.description), Math.max(10, ctx.width() - width - 4))}`,
    );
    renderer.line([`Tools of ${backend.status().agent}:`, ...lines].join("\n"));
  }
  renderer.line(style.dim(hooks.length > 0 ? `hooks: ${terminalLine(hooks.join(", "))}` : "no hooks"));
}

function firstLine(text: string): string {
  return text.split("\n")[0]!.trim();
}
