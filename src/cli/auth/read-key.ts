/**
 * Where `rienda auth set NAME` gets the key: stdin, never the command line
 * (argv is visible to every user of the machine in `ps`, and stays in the
 * shell's history). On a terminal the key is typed with echo off after a
 * prompt on stderr; piped (or from a file), all of stdin is the key, less
 * one trailing line break.
 */
import { STDIN_QUIET_NOTICE_MS } from "../../attachments/index.ts";
import { RiendaError } from "../../errors.ts";
import { HiddenLine } from "./hidden-line.ts";
import { checkedKey, keyOfPipedText, MAX_KEY_BYTES } from "./key-text.ts";

/** The part of a terminal stdin the hidden read needs. */
export interface KeyInput extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
}

/** The key for `provider`, checked (key-text.ts); throws a RiendaError ("interrupted" for Ctrl-C or a signal). */
export async function readKey(
  provider: string,
  stdin: KeyInput,
  stderr: { write(text: string): unknown },
): Promise<string> {
  if (stdin.isTTY && stdin.setRawMode) {
    stderr.write(`Key for ${provider} (typing is not shown; Enter stores it, Ctrl-C gives up): `);
    let typed: string;
    try {
      typed = await readHidden(stdin as KeyInput & { setRawMode(mode: boolean): unknown });
    } finally {
      // Enter was not echoed either: the next line starts below the prompt.
      stderr.write("\n");
    }
    return checkedKey(typed, "the key typed");
  }
  const quiet = setTimeout(
    () =>
      stderr.write(
        `rienda: waiting for the key on stdin (pipe it in: rienda auth set ${provider} < file, or type it at a terminal)\n`,
      ),
    STDIN_QUIET_NOTICE_MS,
  );
  try {
    return checkedKey(keyOfPipedText(await readAllText(stdin)), "the key read from stdin");
  } finally {
    clearTimeout(quiet);
  }
}

/** All of `stream` as UTF-8 text, refusing more than a key can be. */
async function readAllText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    total += bytes.length;
    if (total > MAX_KEY_BYTES)
      throw new RiendaError(
        "usage",
        `the key read from stdin is longer than ${MAX_KEY_BYTES / 1024} KiB: is stdin the right file? nothing was stored`,
      );
    chunks.push(bytes);
  }
  // Bytes that are not UTF-8 decode to U+FFFD, which the key checks refuse as outside ASCII.
  return Buffer.concat(chunks, total).toString("utf8");
}

/** One line typed with echo off; the terminal is given back however the read ends (Ctrl-C, SIGTERM, SIGHUP). */
function readHidden(stdin: KeyInput & { setRawMode(mode: boolean): unknown }): Promise<string> {
  const line = new HiddenLine();
  return new Promise<string>((resolve, reject) => {
    const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
    const finish = (outcome: () => void): void => {
      stdin.removeListener("data", onData);
      for (const signal of signals) process.removeListener(signal, onSignal);
      stdin.setRawMode(false);
      stdin.pause();
      outcome();
    };
    const interrupted = () => reject(new RiendaError("interrupted", "interrupted: no key was stored"));
    const onSignal = (): void => finish(interrupted);
    const onData = (data: Buffer | string): void => {
      const state = line.feed(typeof data === "string" ? data : data.toString("utf8"));
      if (state === "done") finish(() => resolve(line.value));
      else if (state === "interrupted") finish(interrupted);
    };
    for (const signal of signals) process.on(signal, onSignal);
    stdin.setRawMode(true);
    stdin.on("data", onData);
    stdin.resume();
  });
}
