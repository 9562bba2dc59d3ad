import { RiendaError } from "../errors.ts";
import { untilInterrupted } from "./until-interrupted.ts";

/**
 * The prompt of `rienda run -p`: `-` reads all of stdin (the only time
 * stdin is read); anything else is the prompt itself. An empty prompt is
 * refused before any request. An interrupt ends the reading at once.
 */
export async function readPrompt(
  value: string | undefined,
  stdin: NodeJS.ReadableStream = process.stdin,
  signal: AbortSignal = new AbortController().signal,
): Promise<string> {
  if (value === undefined) throw new RiendaError("usage", "run: -p/--prompt is required (use -p - to read the prompt from stdin)");
  const prompt = value === "-" ? await untilInterrupted(readAll(stdin), signal) : value;
  if (prompt.trim() === "") {
    throw new RiendaError("usage", value === "-" ? "run: the prompt read from stdin is empty" : "run: the prompt is empty");
  }
  return prompt;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}
