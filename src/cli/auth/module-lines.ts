/**
 * What provider modules print (ctx.log, console.*, a built-in's "models.dev
 * could not be read") while the key screen is up: kept and drawn inside the
 * screen, since a line written to the terminal would land over it.
 */
import { terminalLine } from "../../ui/index.ts";

/** How many of the latest lines the screen shows. */
const SHOWN = 3;

export class ModuleLines {
  #lines: string[] = [];
  #listener: (() => void) | undefined;

  /** Takes one line (bound: hand it on as a function). */
  readonly add = (text: string): void => {
    for (const line of text.split("\n")) if (line.trim() !== "") this.#lines.push(terminalLine(line));
    this.#listener?.();
  };

  /** The latest lines, made safe for the terminal (a module's text is shown, never acted on). */
  latest(): string[] {
    return this.#lines.slice(-SHOWN);
  }

  /** How many lines came in all. */
  get count(): number {
    return this.#lines.length;
  }

  /** Called on each new line (the screen draws again). */
  onLine(listener: () => void): void {
    this.#listener = listener;
  }
}
