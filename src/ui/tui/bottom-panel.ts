/**
 * The bottom of the screen: the editor, or a question or picker in its
 * place until it is answered. Whatever is shown there has the keyboard;
 * questions wait for each other, so two never read the same key.
 *
 * A tall picker closing on a full screen would leave the editor halfway up
 * with blank rows under the status line (pi-tui draws the shorter frame
 * from the same top). Instead the panel keeps the picker's height, blank
 * rows above the editor, until the transcript grows into them.
 */
import { Container, type Component, type Focusable, type TUI } from "@mariozechner/pi-tui";

type Modal = Component & Focusable;

export class BottomPanel extends Container {
  #queue: Promise<unknown> = Promise.resolve();
  #modal?: Modal;
  /** Closes the modal shown with `undefined` (a signal ends the chat). */
  #cancel?: () => void;
  /** Transcript lines + panel lines to keep the frame at, after a tall modal closed; 0 for none. */
  #floor = 0;
  #floorWidth = 0;
  #modalHeight = 0;

  constructor(
    private readonly tui: TUI,
    private readonly editor: Component & Focusable,
    /** The transcript's lines in the frame being drawn (it is drawn before the panel). */
    private readonly transcriptLines: () => number,
  ) {
    super();
    this.addChild(editor);
  }

  /** Whether a question or picker has the keyboard. */
  get busy(): boolean {
    return this.#modal !== undefined;
  }

  /** A terminating signal: the question or picker shown is closed as cancelled. */
  cancel(): void {
    this.#cancel?.();
  }

  /**
   * Shows the modal `open` builds (handing it `close`) once the ones before
   * it are answered; resolves with what it was closed with (`cancelled`
   * when a signal ends the chat meanwhile).
   */
  ask<T>(open: (close: (value: T) => void) => Modal, cancelled: T): Promise<T> {
    const run = () =>
      new Promise<T>((resolve) => {
        const close = (value: T): void => {
          if (this.#modal !== modal) return;
          // The frame filled the screen: keep its height so the editor stays at the bottom.
          if (this.transcriptLines() + this.#modalHeight + 2 >= this.tui.terminal.rows) {
            this.#floor = this.transcriptLines() + this.#modalHeight;
            this.#floorWidth = this.tui.terminal.columns;
          }
          this.#modal = undefined;
          this.#cancel = undefined;
          this.clear();
          this.addChild(this.editor);
          this.tui.setFocus(this.editor);
          this.tui.requestRender();
          resolve(value);
        };
        const modal = open(close);
        this.#modal = modal;
        this.#cancel = () => close(cancelled);
        this.clear();
        this.addChild(modal);
        this.tui.setFocus(modal);
        this.tui.requestRender();
      });
    const next = this.#queue.then(run, run);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  override render(width: number): string[] {
    const lines = super.render(width);
    if (this.#modal) {
      this.#modalHeight = lines.length;
      return lines;
    }
    // A resize draws everything again: nothing to keep in place then.
    const blank = width === this.#floorWidth ? this.#floor - this.transcriptLines() - lines.length : 0;
    if (blank <= 0) {
      this.#floor = 0;
      return lines;
    }
    return [...Array<string>(blank).fill(""), ...lines];
  }
}
