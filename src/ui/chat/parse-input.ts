/**
 * What a submitted input means: a message for the model, a slash command,
 * or an unknown command with a hint. A command is one line whose first word
 * is `/name`; anything else (a path such as `/etc/hosts …`, several lines)
 * is a message.
 */

/** A slash command of the chat. */
export interface ChatCommandSpec {
  name: string;
  /** How it is written, for /help. */
  usage: string;
  summary: string;
  /** Whether it accepts an argument (the rest of the line). */
  takesArgument: boolean;
  aliases?: string[];
}

/** Every command, in the order /help lists them. */
export const CHAT_COMMANDS: readonly ChatCommandSpec[] = [
  { name: "help", usage: "/help", summary: "commands and keys", takesArgument: false, aliases: ["?"] },
  { name: "new", usage: "/new", summary: "start a new session with the same agent and model", takesArgument: false },
  { name: "sessions", usage: "/sessions", summary: "this workspace's sessions, newest first", takesArgument: false },
  {
    name: "resume",
    usage: "/resume [ID]",
    summary: "continue a session of this workspace (a list to pick from without ID)",
    takesArgument: true,
  },
  {
    name: "rename",
    usage: "/rename TITLE",
    summary: "name this session (its title in /sessions)",
    takesArgument: true,
  },
  {
    name: "fork",
    usage: "/fork",
    summary: "continue this conversation in a new session (this one stays as it is)",
    takesArgument: false,
  },
  {
    name: "tree",
    usage: "/tree [ID]",
    summary: "every branch of this session; pick a message to continue from there (a new branch)",
    takesArgument: true,
  },
  {
    name: "export",
    usage: "/export PATH",
    summary: "write this session to a new file (rienda sessions import reads it)",
    takesArgument: true,
  },
  {
    name: "agent",
    usage: "/agent [NAME]",
    summary: "switch to another agent and its model (a list without NAME)",
    takesArgument: true,
  },
  {
    name: "model",
    usage: "/model [REF]",
    summary: "switch model, provider/model (a list without REF); the thinking level stays when the model has it",
    takesArgument: true,
  },
  {
    name: "thinking",
    usage: "/thinking [LEVEL]",
    summary: "the model's thinking level from your next message (a list of its levels without LEVEL)",
    takesArgument: true,
  },
  { name: "tools", usage: "/tools", summary: "the agent's tools and hooks", takesArgument: false },
  {
    name: "file",
    usage: "/file [PATH]",
    summary: "attach a file (text, image, PDF) to your next message; without PATH, what is attached",
    takesArgument: true,
  },
  {
    name: "compact",
    usage: "/compact",
    summary: "condense the conversation so far into a summary now",
    takesArgument: false,
  },
  {
    name: "copy",
    usage: "/copy [N]",
    summary: "copy the last answer, or its code block N, to the clipboard",
    takesArgument: true,
  },
  { name: "hotkeys", usage: "/hotkeys", summary: "the keys of this screen", takesArgument: false },
  {
    name: "show-thinking",
    usage: "/show-thinking",
    summary: "show the model's thinking in full, or collapse it again",
    takesArgument: false,
  },
  {
    name: "exit",
    usage: "/exit",
    summary: "quit (also Ctrl-D, or Ctrl-C twice at an empty prompt)",
    takesArgument: false,
    aliases: ["quit"],
  },
];

/** The meaning of one input. */
export type ChatInput =
  | { kind: "empty" }
  | { kind: "message"; text: string }
  | { kind: "command"; name: string; argument: string }
  /** A known command given an argument it does not take. */
  | { kind: "misused"; name: string; usage: string }
  | { kind: "unknown"; name: string; suggestion?: string };

/** Classifies one submitted input. */
export function parseInput(text: string): ChatInput {
  if (text.trim() === "") return { kind: "empty" };
  const match = /^\/([A-Za-z?][\w-]*)(?:[ \t]+(.*))?$/.exec(text.trim());
  if (!match || text.trim().includes("\n")) return { kind: "message", text };
  const written = match[1]!.toLowerCase();
  const argument = (match[2] ?? "").trim();
  const spec = CHAT_COMMANDS.find((c) => c.name === written || c.aliases?.includes(written));
  if (!spec) {
    const suggestion = suggestCommand(written);
    return { kind: "unknown", name: written, ...(suggestion ? { suggestion } : {}) };
  }
  if (argument !== "" && !spec.takesArgument) return { kind: "misused", name: spec.name, usage: spec.usage };
  return { kind: "command", name: spec.name, argument };
}

/** The closest command name to a mistyped one (a prefix, or at most two edits away). */
export function suggestCommand(written: string): string | undefined {
  const names = CHAT_COMMANDS.flatMap((c) => [c.name, ...(c.aliases ?? [])]).filter((n) => n !== "?");
  const byPrefix = names.filter((n) => n.startsWith(written) || written.startsWith(n));
  if (byPrefix.length === 1) return canonical(byPrefix[0]!);
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(written, name);
    if (distance <= 2 && (!best || distance < best.distance)) best = { name, distance };
  }
  return best ? canonical(best.name) : undefined;
}

function canonical(name: string): string {
  return CHAT_COMMANDS.find((c) => c.name === name || c.aliases?.includes(name))!.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
