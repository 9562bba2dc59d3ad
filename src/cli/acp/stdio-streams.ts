/**
 * The process's stdin and the protocol's stdout as the web streams the
 * SDK's `ndJsonStream` reads and writes. The SDK frames (one JSON message
 * per line) and caps each line; these only carry bytes.
 */
import type { ProtocolOut } from "../shared/protocol-stdout.ts";

/** Bytes from stdin until its end; an error on it ends the stream as its end would. */
export function stdinStream(stdin: NodeJS.ReadableStream): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let ended = false;
      const end = (): void => {
        if (ended) return;
        ended = true;
        controller.close();
      };
      stdin.on("data", (chunk: Buffer | string) => {
        if (!ended)
          controller.enqueue(typeof chunk === "string" ? new TextEncoder().encode(chunk) : new Uint8Array(chunk));
      });
      stdin.on("end", end);
      stdin.on("close", end);
      stdin.on("error", end);
    },
  });
}

/** Bytes to the protocol's stdout; each write the SDK makes is whole messages, so decoding it alone is safe. */
export function stdoutStream(out: ProtocolOut): WritableStream<Uint8Array> {
  const decoder = new TextDecoder();
  return new WritableStream<Uint8Array>({
    write(chunk) {
      out.write(decoder.decode(chunk));
    },
  });
}
