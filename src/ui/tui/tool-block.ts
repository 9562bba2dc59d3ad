/**
 * One tool call as it runs: `• name {arguments}` on one line (a `shell`
 * call as `• $ command`; in full when expanded), its live output in a dimmed `│` block (the last lines while
 * collapsed), a subagent's calls nested under it, and its result marked
 * `✓` or `✗`. The block is drawn as soon as the model asks for the call,
 * so a hook's question about it, or its refusal, shows under it. Arguments,
 * output and results are outside text: their control characters are shown,
 * never acted on, and colour codes in the output are dropped (the chat's
 * own colours are the only ones on the screen).
 */
import { wrapTextWithAnsi, type Component } from "@mariozechner/pi-tui";
import { cut } from "./cut.ts";
import { firstLineOf, lastLineOf, shortArguments } from "../chat/index.ts";
import { terminalLine, terminalSafe } from "../terminal-text.ts";
import type { TuiTheme } from "./theme.ts";

/** Lines of live output shown while a block is collapsed. */
const COLLAPSED_OUTPUT_LINES = 8;

export class ToolBlock implements Component {
  #output = "";
  #result?: { text: string; isError: boolean };
  #note?: string;
  #rows?: { width: number; length: number; rows: string[] };
  readonly children: Component[] = [];
  expanded = false;
  /** The loop has started the call (its beforeToolExecute hooks are done); until then it is only asked for. */
  announced = false;

  constructor(
    private readonly theme: TuiTheme,
    readonly name: string,
    private args: unknown,
  ) {}

  /** The call starts, with the arguments it runs with (a hook may have rewritten the model's). */
  announce(args: unknown): void {
    this.announced = true;
    this.args = args;
  }

  /** Live output (stdout, stderr, ctx.log lines). */
  output(text: string): void {
    this.#output += withoutColours(text);
  }

  result(text: string, isError: boolean): void {
    this.#result = { text: withoutColours(text), isError };
  }

  /** A line under the call that is not its result: a hook's refusal, a question answered by -y. */
  note(text: string): void {
    this.#note = text;
  }

  get running(): boolean {
    return this.#result === undefined;
  }

  invalidate(): void {}

  render(width: number): string[] {
    const s = this.theme.style;
    const lines = this.#header(width);
    const printed = this.#output.replace(/\n$/, "") !== "";
    if (printed) {
      let rows = this.#outputRows(width);
      if (!this.expanded && rows.length > COLLAPSED_OUTPUT_LINES) {
        lines.push(s.dim(`  │ … ${rows.length - COLLAPSED_OUTPUT_LINES} earlier lines (Ctrl-O shows them)`));
        rows = rows.slice(-COLLAPSED_OUTPUT_LINES);
      }
      for (const row of rows) lines.push(s.dim(`  │ ${row}`));
    }
    for (const child of this.children)
      for (const line of child.render(Math.max(10, width - 2))) lines.push(`  ${line}`);
    if (this.#note) lines.push(cut(s.warn(`  ${this.#note}`), width));
    const result = this.#result;
    if (result) {
      const room = Math.max(4, width - 4);
      if (result.isError) {
        // Live output already showed the body; the last line says how it ended (exit code, timeout).
        const summary = (printed ? lastLineOf(result.text) : firstLineOf(result.text)) || "failed";
        lines.push(s.error(`  ✗ ${cut(terminalLine(summary), room)}`));
      } else if (!printed) {
        if (this.expanded && result.text.includes("\n")) {
          for (const row of terminalSafe(result.text)
            .split("\n")
            .flatMap((l) => wrapTextWithAnsi(l, room)))
            lines.push(s.dim(`  ✓ ${row}`));
        } else lines.push(s.dim(`  ✓ ${cut(terminalLine(firstLineOf(result.text) || "(empty result)"), room)}`));
      }
    }
    return lines;
  }

  /** The output wrapped at `width`, kept until more output or another width (the activity line redraws often). */
  #outputRows(width: number): string[] {
    if (this.#rows?.width !== width || this.#rows.length !== this.#output.length) {
      const text = terminalSafe(this.#output).replace(/\n$/, "");
      this.#rows = {
        width,
        length: this.#output.length,
        rows: text.split("\n").flatMap((line) => wrapTextWithAnsi(line, Math.max(1, width - 4))),
      };
    }
    return this.#rows.rows;
  }

  #header(width: number): string[] {
    const s = this.theme.style;
    const mark = this.running ? s.warn("•") : this.#result?.isError ? s.error("•") : s.accent("•");
    const command = shellCommand(this.name, this.args);
    if (command !== undefined && !this.expanded) return [cut(`${mark} ${s.bold("$")} ${terminalLine(command)}`, width)];
    const name = terminalLine(this.name);
    const args = terminalLine(shortArguments(this.args));
    if (this.expanded && args !== "") {
      const pretty = terminalSafe(typeof this.args === "string" ? this.args : JSON.stringify(this.args, null, 2));
      const rows = pretty.split("\n").flatMap((l) => wrapTextWithAnsi(l, Math.max(1, width - 4)));
      return [`${mark} ${s.bold(name)}`, ...rows.map((r) => s.dim(`    ${r}`))];
    }
    return [cut(`${mark} ${s.bold(name)}${args ? ` ${s.dim(args)}` : ""}`, width)];
  }
}

/** The command of a `shell` call, which the call is shown as. */
function shellCommand(name: string, args: unknown): string | undefined {
  if (name !== "shell" || args === null || typeof args !== "object") return undefined;
  const command = (args as { command?: unknown }).command;
  return typeof command === "string" ? command : undefined;
}

/** SGR sequences (colours, bold) of a command's output, which would otherwise show as `\x1b[32m` text. */
export function withoutColours(text: string): string {
  return text.replace(/\x1b\[[0-9;:]*m/g, "");
}
