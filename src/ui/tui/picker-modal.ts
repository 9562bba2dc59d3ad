/**
 * A pick from a list (agent, model, session, a message of the session
 * tree), in place of the editor: typing searches (fuzzy, on the labels),
 * ↑/↓ move, Enter chooses, Esc or Ctrl-C cancels. Shows as many rows as
 * fit the terminal and scrolls. The start-up pickers also take the line
 * chat's list keys while nothing is searched: j/k move, a number picks
 * that row (docs/chat.md).
 */
import { fuzzyFilter, matchesKey, type Component, type Focusable } from "@mariozechner/pi-tui";
import { cut } from "./cut.ts";
import type { TuiTheme } from "./theme.ts";

export interface PickerChoice {
  value: string;
  label: string;
}

export class PickerModal implements Component, Focusable {
  focused = false;
  #query = "";
  #shown: PickerChoice[];
  #active: number;
  #top = 0;

  constructor(
    private readonly theme: TuiTheme,
    private readonly title: string,
    private readonly choices: PickerChoice[],
    initial: string | undefined,
    private readonly rows: () => number,
    private readonly done: (value: string | undefined) => void,
    private readonly listKeys = false,
  ) {
    this.#shown = choices;
    this.#active = Math.max(
      0,
      choices.findIndex((c) => c.value === initial),
    );
  }

  handleInput(data: string): void {
    const count = this.#shown.length;
    if (this.listKeys && this.#query === "" && this.#listKey(data)) return;
    if (matchesKey(data, "up")) this.#active = count === 0 ? 0 : (this.#active + count - 1) % count;
    else if (matchesKey(data, "down") || matchesKey(data, "tab"))
      this.#active = count === 0 ? 0 : (this.#active + 1) % count;
    else if (matchesKey(data, "enter")) {
      const choice = this.#shown[this.#active];
      if (choice) this.done(choice.value);
    } else if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c") || matchesKey(data, "ctrl+d"))
      this.done(undefined);
    else if (matchesKey(data, "backspace")) this.#search([...this.#query].slice(0, -1).join(""));
    else if ([...data].length === 1 && data >= " " && data !== "\u007f") this.#search(this.#query + data);
  }

  /** j/k and a number, before any search: whether `data` was one. */
  #listKey(data: string): boolean {
    const count = this.#shown.length;
    if (data === "k") this.#active = (this.#active + count - 1) % count;
    else if (data === "j") this.#active = (this.#active + 1) % count;
    else if (/^[1-9]$/.test(data) && Number(data) <= count) this.done(this.#shown[Number(data) - 1]!.value);
    else return false;
    return true;
  }

  #search(query: string): void {
    this.#query = query;
    this.#shown = query === "" ? this.choices : fuzzyFilter(this.choices, query, (c) => c.label);
    this.#active = 0;
    this.#top = 0;
  }

  invalidate(): void {}

  render(width: number): string[] {
    const s = this.theme.style;
    const visible = Math.max(3, Math.min(this.#shown.length, this.rows() - 6));
    if (this.#active < this.#top) this.#top = this.#active;
    if (this.#active >= this.#top + visible) this.#top = this.#active - visible + 1;
    const lines = [
      s.accent("─".repeat(width)),
      `${s.accent("?")} ${s.bold(this.title)}`,
      `  ${s.dim("search:")} ${this.#query}${s.dim("▏")}`,
    ];
    for (let i = this.#top; i < Math.min(this.#shown.length, this.#top + visible); i++) {
      const label = this.#shown[i]!.label;
      lines.push(i === this.#active ? `${s.accent("❯")} ${s.accent(label)}` : `  ${label}`);
    }
    if (this.#shown.length === 0) lines.push(s.dim("  (nothing matches)"));
    const more = this.#shown.length > visible ? ` · ${this.#active + 1}/${this.#shown.length}` : "";
    const keys = this.listKeys
      ? "↑/↓ or j/k move · a number or Enter chooses · other letters search"
      : "type to search · ↑/↓ move · Enter choose";
    lines.push(s.dim(`  ${keys} · Esc cancel${more}`));
    return lines.map((line) => cut(line, width));
  }
}
