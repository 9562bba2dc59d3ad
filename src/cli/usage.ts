/**
 * `--help`: a command's usage, rendered from the same flag specs the
 * command line is read with (strict-args.ts), so the two never disagree.
 * The layout is the one citty printed before Rienda read argv itself
 * (description, USAGE, ARGUMENTS, OPTIONS, COMMANDS).
 */
import { VERSION } from "../version.ts";
import { loadCommand, type Command } from "./shared/command.ts";
import type { ArgsDef } from "./shared/strict-args.ts";

type Paint = (text: string) => string;

/** The styles of the usage text; plain when `color` is false. */
function palette(color: boolean): { bold: Paint; cyan: Paint; gray: Paint; underline: Paint } {
  const style = (on: number, off: number): Paint =>
    color ? (text) => `\u001b[${on}m${text}\u001b[${off}m` : (text) => text;
  return { bold: style(1, 22), cyan: style(36, 39), gray: style(90, 39), underline: style(4, 24) };
}

/** Whether usage on this stdout is coloured: a terminal, and nothing asking for plain text (NO_COLOR, TERM=dumb, CI). */
export function usageInColor(stdout: { isTTY?: boolean }, env: Readonly<Record<string, string | undefined>>): boolean {
  return stdout.isTTY === true && !env.NO_COLOR && env.TERM !== "dumb" && !env.CI && !env.TEST;
}

/** The usage of `command`, reached by the command words `path` (["tool", "run"]). */
export async function renderUsage(command: Command<any>, path: readonly string[], color: boolean): Promise<string> {
  const { bold, cyan, gray, underline } = palette(color);
  const name = ["rienda", ...path].join(" ");
  const { words, flags, synopsis } = argRows(command.args ?? {});
  const commands: [string, string][] = [];
  for (const [word, entry] of Object.entries(command.subCommands ?? {}))
    commands.push([word, (await loadCommand(entry)).meta.description]);
  if (commands.length > 0) synopsis.push(commands.map(([word]) => word).join("|"));
  const options = words.length > 0 || flags.length > 0 ? " [OPTIONS]" : "";
  const lines = [
    gray(`${command.meta.description} (${name} v${VERSION})`),
    "",
    `${underline(bold("USAGE"))} ${cyan(`${name}${options} ${synopsis.join(" ")}`)}`,
    "",
  ];
  const section = (title: string, rows: [string, string][]) => {
    if (rows.length > 0) lines.push(underline(bold(title)), "", columns(rows, cyan), "");
  };
  section("ARGUMENTS", words);
  section("OPTIONS", flags);
  if (commands.length > 0) {
    section("COMMANDS", commands);
    lines.push(`Use ${cyan(`${name} <command> --help`)} for more information about a command.`);
  }
  return lines.join("\n");
}

/** The rows of ARGUMENTS and OPTIONS, and the words of the USAGE line. */
function argRows(args: ArgsDef): { words: [string, string][]; flags: [string, string][]; synopsis: string[] } {
  const words: [string, string][] = [];
  const flags: [string, string][] = [];
  const synopsis: string[] = [];
  for (const [key, def] of Object.entries(args)) {
    if (def.type === "positional") {
      if (def.hidden) continue;
      words.push([key.toUpperCase(), def.description ?? ""]);
      synopsis.push(`[${key.toUpperCase()}]`);
      continue;
    }
    const aliases = def.alias === undefined ? [] : typeof def.alias === "string" ? [def.alias] : def.alias;
    const hint = def.type === "string" ? `=<${def.valueHint ?? key.replace(/-/g, "_")}>` : "";
    flags.push([`${[...aliases.map((a) => `-${a}`), `--${key}`].join(", ")}${hint}`, def.description ?? ""]);
  }
  return { words, flags, synopsis };
}

/** Two columns: the first right-aligned (and painted), the second padded to the widest. */
function columns(rows: readonly [string, string][], paint: Paint): string {
  const first = Math.max(...rows.map(([left]) => left.length));
  const second = Math.max(...rows.map(([, right]) => right.length));
  return rows
    .map(([left, right]) => `  ${" ".repeat(first - left.length)}${paint(left)}    ${right.padEnd(second)}`)
    .join("\n");
}
