/**
 * A stand-in terminal for unit tests of the chat's input code: a readable
 * that says it is a TTY (raw mode is recorded, not applied) and a writable
 * that keeps everything written.
 */
import { PassThrough, Writable } from "node:stream";

/** The input side: `send` types bytes as a terminal would. */
export interface FakeInput extends PassThrough {
  isTTY: true;
  isRaw: boolean;
  setRawMode(mode: boolean): FakeInput;
  send(text: string): void;
}

/** The output side: `text` is everything written so far. */
export interface FakeOutput extends Writable {
  isTTY: true;
  columns: number;
  rows: number;
  text: string;
}

/** A fresh input/output pair. */
export function fakeTerminal(
  columns = 80,
  rows = 24,
): { input: NodeJS.ReadStream & FakeInput; output: NodeJS.WriteStream & FakeOutput } {
  const input = new PassThrough() as unknown as FakeInput;
  input.isTTY = true;
  input.isRaw = false;
  input.setRawMode = (mode: boolean) => {
    input.isRaw = mode;
    return input;
  };
  input.send = (text: string) => void input.write(text);
  const output = new Writable({
    write(chunk, _encoding, callback) {
      output.text += String(chunk);
      callback();
    },
  }) as unknown as FakeOutput;
  output.isTTY = true;
  output.columns = columns;
  output.rows = rows;
  output.text = "";
  return { input: input as NodeJS.ReadStream & FakeInput, output: output as NodeJS.WriteStream & FakeOutput };
}

/** Lets queued stream events run. */
export function tick(ms = 5): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Removes escape sequences, for assertions on what a person would read. */
export function visible(text: string): string {
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "");
}
