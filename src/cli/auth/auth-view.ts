/**
 * What `rienda auth`'s screen shows and how it answers keys: every
 * provider with ✓/—/!, its number of models and where its key comes from
 * (a module that fails shows its problem), a key field in place of the
 * help line when Enter is pressed, a y/N question before a stored key is
 * removed. Storing and removing are the caller's (`actions`); the view
 * never sees a key after handing it on.
 */
import { matchesKey, truncateToWidth, type Component, type Focusable } from "@mariozechner/pi-tui";
import type { ChatStyle } from "../../ui/chat/index.ts";
import { MaskedField } from "./masked-field.ts";
import { modelCount, rowMark, type ProviderRow } from "../shared/provider-rows.ts";
import { keyProblem } from "./key-text.ts";
import type { ModuleLines } from "./module-lines.ts";

/** What the screen asks of its owner. */
export interface AuthActions {
  /** Stores the key; returns the line to show (or throws a RiendaError whose message is shown). */
  store(provider: string, key: string): string;
  /** Removes the stored key; returns the line to show. */
  remove(provider: string): string;
  /** Whether credentials.json holds a key of this provider now. */
  stored(provider: string): boolean;
  /** config.yaml's `api_key` key path when the provider writes one (that key is used first). */
  configKey(provider: string): string | undefined;
  /** The screen is done. */
  quit(): void;
  /** Something changed: draw again. */
  render(): void;
}

type Mode =
  | { kind: "list" }
  | { kind: "field"; field: MaskedField; provider: string }
  | { kind: "remove"; provider: string };

export class AuthView implements Component, Focusable {
  focused = false;
  #selected = 0;
  #top = 0;
  #mode: Mode = { kind: "list" };
  #message: { text: string; tone: "ok" | "warn" | "error" | "dim" } | undefined;

  constructor(
    private readonly style: ChatStyle,
    private readonly header: string,
    private rows: ProviderRow[],
    private readonly rowsOnScreen: () => number,
    private readonly actions: AuthActions,
    private readonly moduleLines?: Pick<ModuleLines, "latest" | "count">,
  ) {}

  /** Replaces the rows (a module answered, a key was stored). */
  setRows(rows: ProviderRow[]): void {
    this.rows = rows;
    this.#selected = Math.min(this.#selected, Math.max(0, rows.length - 1));
  }

  handleInput(data: string): void {
    const mode = this.#mode;
    if (mode.kind === "field") return mode.field.handleInput(data);
    if (mode.kind === "remove") return this.#answerRemove(data, mode.provider);
    const count = this.rows.length;
    if (matchesKey(data, "up")) this.#selected = (this.#selected + count - 1) % count;
    else if (matchesKey(data, "down") || matchesKey(data, "tab")) this.#selected = (this.#selected + 1) % count;
    else if (matchesKey(data, "enter")) this.#open(this.rows[this.#selected]!);
    else if (matchesKey(data, "delete") || data === "d") this.#askRemove(this.rows[this.#selected]!);
    else if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c") || matchesKey(data, "ctrl+d") || data === "q")
      this.actions.quit();
    else return;
    this.actions.render();
  }

  #open(row: ProviderRow): void {
    if (row.key === undefined && row.problem === undefined)
      return this.#say(`${row.name}: its module is still being evaluated; a moment`, "dim");
    if (row.needsNoKey) return this.#say(`${row.name} needs no key (its module declares auth: none)`, "ok");
    const field = new MaskedField(
      `Key for ${row.name}: `,
      (key) => this.#submit(row.name, key),
      () => this.#leave(),
    );
    this.#mode = { kind: "field", field, provider: row.name };
    const configKey = this.actions.configKey(row.name);
    this.#message = configKey
      ? {
          text: `config.yaml writes ${configKey}, which is used before a stored key: remove it there for this one to count`,
          tone: "warn",
        }
      : undefined;
  }

  #submit(provider: string, key: string): void {
    const problem = keyProblem(key);
    if (problem !== undefined) {
      this.#say(`the key ${problem}; type it again, or Esc`, "error");
      return this.actions.render();
    }
    this.#mode = { kind: "list" };
    try {
      this.#say(this.actions.store(provider, key), "ok");
    } catch (error) {
      this.#say(error instanceof Error ? error.message : String(error), "error");
    }
    this.actions.render();
  }

  #leave(): void {
    this.#mode = { kind: "list" };
    this.#say("nothing stored", "dim");
    this.actions.render();
  }

  #askRemove(row: ProviderRow): void {
    if (!this.actions.stored(row.name)) return this.#say(`no key of ${row.name} is stored`, "dim");
    this.#mode = { kind: "remove", provider: row.name };
    this.#message = undefined;
  }

  #answerRemove(data: string, provider: string): void {
    this.#mode = { kind: "list" };
    if (data === "y" || data === "Y") {
      try {
        this.#say(this.actions.remove(provider), "ok");
      } catch (error) {
        this.#say(error instanceof Error ? error.message : String(error), "error");
      }
    } else this.#say("kept", "dim");
    this.actions.render();
  }

  #say(text: string, tone: "ok" | "warn" | "error" | "dim"): void {
    this.#message = { text, tone };
  }

  invalidate(): void {}

  render(width: number): string[] {
    const s = this.style;
    const lines = [s.bold(this.header), ""];
    const said = this.moduleLines?.latest() ?? [];
    const visible = Math.max(
      3,
      Math.min(this.rows.length, this.rowsOnScreen() - 8 - (said.length > 0 ? said.length + 2 : 0)),
    );
    if (this.#selected < this.#top) this.#top = this.#selected;
    if (this.#selected >= this.#top + visible) this.#top = this.#selected - visible + 1;
    const nameWidth = Math.max(...this.rows.map((r) => r.name.length));
    for (let i = this.#top; i < Math.min(this.rows.length, this.#top + visible); i++) {
      const row = this.rows[i]!;
      const text = `${this.#markOf(row)} ${row.name.padEnd(nameWidth)}  ${modelCount(row).padEnd(10)}  ${this.#keyOf(row)}`;
      lines.push(i === this.#selected ? `${s.accent("❯")} ${text}` : `  ${text}`);
    }
    if (this.rows.length > visible) lines.push(s.dim(`  ${this.#selected + 1}/${this.rows.length}`));
    lines.push("");
    if (said.length > 0) {
      const more = this.moduleLines!.count - said.length;
      lines.push(
        s.dim(`modules said${more > 0 ? ` (the last ${said.length} of ${this.moduleLines!.count} lines)` : ""}:`),
        ...said.map((line) => s.dim(`  ${line}`)),
        "",
      );
    }
    const mode = this.#mode;
    if (this.#message) lines.push(this.#paint(this.#message.text, this.#message.tone));
    if (mode.kind === "field") {
      lines.push(...mode.field.render(width));
      lines.push(s.dim("Enter stores it · Esc leaves the field (nothing is stored) · Ctrl-U clears"));
    } else if (mode.kind === "remove") {
      lines.push(`${s.warn("?")} Remove the stored key of ${mode.provider}? ${s.dim("[y/N]")}`);
    } else lines.push(s.dim("↑/↓ choose · Enter type its key · Del remove its stored key · Esc quits"));
    return lines.map((line) => truncateToWidth(line, Math.max(1, width), "…"));
  }

  #markOf(row: ProviderRow): string {
    const mark = rowMark(row);
    const s = this.style;
    return mark === "✓" ? s.ok(mark) : mark === "!" ? s.error(mark) : mark === "—" ? s.warn(mark) : s.dim(mark);
  }

  #keyOf(row: ProviderRow): string {
    if (row.problem !== undefined) return this.style.error(row.problem);
    switch (row.key) {
      case "config":
        return "key in config.yaml";
      case "credentials":
        return "key in credentials.json";
      case "not needed":
        return row.needsNoKey ? "needs no key" : "no key (optional)";
      case "missing":
        return this.style.warn("no key");
      default:
        return this.style.dim("…");
    }
  }

  #paint(text: string, tone: "ok" | "warn" | "error" | "dim"): string {
    return this.style[tone](text);
  }
}
