/** A response body through SSE decoding and a protocol's mapper, as StreamEvents ending in one done or error. */
import { readSse } from "./sse.ts";
import type { StreamEvent, StreamMapper } from "./types.ts";

/**
 * Runs a response body through SSE decoding and a protocol's mapper: yields
 * the mapped events and stops right after the first terminal one; when the
 * body ends without one, yields the mapper's `end()`. Errors of the body
 * propagate (the caller turns them into failures).
 */
export async function* mapSseStream(
  chunks: AsyncIterable<Uint8Array>,
  mapper: StreamMapper,
): AsyncGenerator<StreamEvent> {
  for await (const event of readSse(chunks)) {
    for (const mapped of mapper.push(event)) {
      yield mapped;
      if (mapped.type === "done" || mapped.type === "error") return;
    }
  }
  yield* mapper.end();
}
