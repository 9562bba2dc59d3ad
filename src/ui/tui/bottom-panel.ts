/**
 * The bottom of the screen: the editor, or a question or picker in its
 * place until it is answered. Whatever is shown there has the keyboard;
 * questions wait for each other, so two never read the same key.
 */
import { Container, type Component, type Focusable, type TUI } from "@mariozechner/pi-tui";

type Modal = Component & Focusable;

export class BottomPanel extends Container {
  #queue: Promise<unknown> = Promise.resolve();
  #modal?: Modal;
  /** Closes the modal shown with `undefined` (a signal ends the chat). */
  #cancel?: () => void;

  constructor(private readonly tui: TUI, private readonly editor: Component & Focusable) {
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
}
