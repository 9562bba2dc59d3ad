/**
 * A failure of one `ctx` call, raised in the context as an `Error` (or a
 * `TypeError` for a wrong argument) carrying only this message.
 */
export class CtxError extends Error {
  readonly typeError: boolean;

  constructor(message: string, options: { typeError?: boolean } = {}) {
    super(message);
    this.name = "CtxError";
    this.typeError = options.typeError ?? false;
  }
}
