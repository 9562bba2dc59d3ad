/** The server-sent-events decoder: bytes of a response body in, events (`event:` name and joined `data:`) out. */
import { createParser } from "eventsource-parser";
import type { SseEvent } from "./types.ts";

/**
 * Decodes a server-sent-events byte stream into events. Bytes are decoded as
 * UTF-8 across chunk boundaries and framing is left to `eventsource-parser`
 * (CR, LF and CRLF split anywhere). An event still open when the body ends
 * is dropped, as the SSE standard says: a cut stream never yields half an
 * event. Errors of the body (network, abort) propagate to the caller.
 */
export async function* readSse(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
  const pending: SseEvent[] = [];
  const parser = createParser({
    onEvent(message) {
      pending.push(message.event === undefined ? { data: message.data } : { event: message.event, data: message.data });
    },
  });
  const decoder = new TextDecoder("utf-8");
  for await (const chunk of chunks) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    while (pending.length > 0) yield pending.shift() as SseEvent;
  }
  parser.feed(decoder.decode());
  while (pending.length > 0) yield pending.shift() as SseEvent;
}
