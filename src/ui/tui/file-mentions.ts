/**
 * `@path` in a message: the editor completes workspace paths after `@`
 * (files the workspace's .gitignore and .ignore files leave out are not
 * offered; read with the `ignore` library, as ctx.file.list does), and on
 * sending, each `@path` naming a file of the workspace is attached to the
 * message as `/file PATH` would. The editor also completes slash commands,
 * and the argument of those that take a name from a list (/model, /agent,
 * /thinking).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import ignore, { type Ignore } from "ignore";
import { fuzzyFilter, type AutocompleteItem, type AutocompleteProvider } from "@mariozechner/pi-tui";
import { CHAT_COMMANDS, type ChatBackend, type ChatStyle } from "../chat/index.ts";
import { terminalLine } from "../terminal-text.ts";
import type { Transcript } from "./transcript.ts";

/** At most this many paths are listed: a huge workspace must not stall the editor. */
const MAX_FILES = 20_000;
/** Suggestions shown at once. */
const MAX_SUGGESTIONS = 30;
/** `@` at the start or after a space, then the path typed so far. */
const MENTION_BEFORE_CURSOR = /(?:^|\s)@([^\s@]*)$/;
const MENTIONS = /(?:^|\s)@([^\s@]+)/g;
/** A command whose argument is completed, and the argument typed so far. */
const ARGUMENT_BEFORE_CURSOR = /^\/(model|agent|thinking) (\S*)$/;

/** The values `/model`, `/agent` or `/thinking` takes now. */
export type ArgumentValues = (command: string) => Promise<string[]>;

/** The workspace's files, listed when first completed and again when the workspace changes. */
export class WorkspaceFiles {
  #listed?: { root: string; files: string[] };

  constructor(
    private readonly workdir: () => string,
    private readonly argumentValues: ArgumentValues = async () => [],
  ) {}

  files(): string[] {
    const root = this.workdir();
    if (this.#listed?.root !== root) this.#listed = { root, files: listWorkspace(root) };
    return this.#listed.files;
  }

  provider(): AutocompleteProvider {
    return {
      getSuggestions: async (lines, line, col) => {
        const before = (lines[line] ?? "").slice(0, col);
        const mention = MENTION_BEFORE_CURSOR.exec(before);
        if (mention) {
          const query = mention[1]!;
          const files = this.files();
          const found = query === "" ? files : fuzzyFilter(files, query, (f) => f);
          return {
            prefix: `@${query}`,
            items: found.slice(0, MAX_SUGGESTIONS).map((f) => ({ value: f, label: terminalLine(f) })),
          };
        }
        const argument = line === 0 ? ARGUMENT_BEFORE_CURSOR.exec(before) : null;
        if (argument) {
          const typed = argument[2]!;
          const values = await this.argumentValues(argument[1]!);
          // What was typed in full comes first: Enter then sends it as typed.
          const found =
            typed === ""
              ? values
              : [
                  ...values.filter((v) => v === typed),
                  ...fuzzyFilter(values, typed, (v) => v).filter((v) => v !== typed),
                ];
          // The prefix is the whole command: pi-tui applies a completion of a `/` prefix and sends it with the same Enter.
          const items = found
            .slice(0, MAX_SUGGESTIONS)
            .map((v) => ({ value: `${argument[1]} ${v}`, label: terminalLine(v) }));
          return items.length > 0 ? { prefix: before, items } : null;
        }
        if (line === 0 && /^\/\w*$/.test(before)) {
          const typed = before.slice(1);
          const items: AutocompleteItem[] = CHAT_COMMANDS.filter((c) => c.name.startsWith(typed)).map((c) => ({
            value: c.name,
            label: c.usage,
            description: c.summary,
          }));
          return items.length > 0 ? { prefix: before, items } : null;
        }
        return null;
      },
      applyCompletion: (lines, line, col, item, prefix) => {
        const text = lines[line] ?? "";
        const start = col - prefix.length;
        const isArgument = line === 0 && ARGUMENT_BEFORE_CURSOR.test(prefix);
        const inserted = isArgument ? `/${item.value}` : prefix.startsWith("@") ? `@${item.value} ` : `/${item.value} `;
        const next = [...lines];
        next[line] = text.slice(0, start) + inserted + text.slice(col);
        return { lines: next, cursorLine: line, cursorCol: start + inserted.length };
      },
      shouldTriggerFileCompletion: () => true,
    };
  }
}

/** Attaches every `@path` of `text` that names a file of the workspace; a refused file throws, naming it. */
export function attachMentions(text: string, backend: ChatBackend, transcript: Transcript, style: ChatStyle): void {
  const root = backend.status().workdir;
  for (const match of text.matchAll(MENTIONS)) {
    const path = match[1]!.replace(/[.,;:!?)]+$/, "");
    const abs = resolve(root, path);
    // `@someone` or a path outside the workspace is words, not a file to attach.
    if (!abs.startsWith(root + sep) || !existsSync(abs) || !statSync(abs).isFile()) continue;
    const row = backend.attach(path);
    transcript.line(style.ok(`attached ${terminalLine(row.name)} (${row.description})`));
  }
}

/** Files under `root`, "/"-separated and relative, leaving out what ignore files name, `.git`, and names with control characters. */
export function listWorkspace(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, rules: { base: string; ig: Ignore }[]): void => {
    if (out.length >= MAX_FILES) return;
    const own = ignoreRules(dir);
    const levels = own ? [...rules, { base: dir, ig: own }] : rules;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    } catch {
      return; // an unreadable directory is skipped
    }
    for (const entry of entries) {
      if (entry.name === ".git" || out.length >= MAX_FILES) continue;
      const abs = join(dir, entry.name);
      const isDir = entry.isDirectory();
      if (levels.some(({ base, ig }) => ig.ignores(relative(base, abs).split(sep).join("/") + (isDir ? "/" : ""))))
        continue;
      // Links are listed, never entered: a link cycle cannot loop.
      const path = relative(root, abs).split(sep).join("/");
      // A name holding a control character (an escape sequence: `a\x1b]0;TITLE\x07b.txt`) is never offered:
      // completed into the editor line, it would reach the terminal raw (the editor draws what it holds).
      if (terminalLine(path) !== path) continue;
      if (isDir) walk(abs, levels);
      else out.push(path);
    }
  };
  walk(root, []);
  return out;
}

function ignoreRules(dir: string): Ignore | undefined {
  let ig: Ignore | undefined;
  for (const name of [".gitignore", ".ignore"]) {
    const path = join(dir, name);
    if (!existsSync(path)) continue;
    try {
      ig = (ig ?? ignore()).add(readFileSync(path, "utf8"));
    } catch {
      // an unreadable ignore file hides nothing
    }
  }
  return ig;
}
