import { describe, expect, test } from "bun:test";
import { readSse } from "../../src/providers/sse.ts";
import type { SseEvent } from "../../src/providers/types.ts";

async function events(...chunks: string[]): Promise<SseEvent[]> {
  const encoder = new TextEncoder();
  async function* source() {
    for (const chunk of chunks) yield encoder.encode(chunk);
  }
  const out: SseEvent[] = [];
  for await (const event of readSse(source())) out.push(event);
  return out;
}

describe("SSE decoding", () => {
  test("accepts LF, CRLF and bare CR line ends, also split across chunks", async () => {
    expect(await events("data: a\n\n", "data: b\r", "\n\r\n", "data: c\r\r", "data: d\n\n")).toEqual([
      { data: "a" },
      { data: "b" },
      { data: "c" },
      { data: "d" },
    ]);
  });

  test("keeps the event name, joins multi-line data and skips comments", async () => {
    expect(await events(': ping\n\nevent: message_start\ndata: {"a":\ndata: 1}\n\n')).toEqual([
      { event: "message_start", data: '{"a":\n1}' },
    ]);
  });

  test("drops an event the stream ended in the middle of", async () => {
    expect(await events("data: whole\n\n", "data: half")).toEqual([{ data: "whole" }]);
  });

  test("decodes a multi-byte character split between chunks", async () => {
    const bytes = new TextEncoder().encode("data: 🌍\n\n");
    async function* source() {
      yield bytes.subarray(0, 8);
      yield bytes.subarray(8);
    }
    const out: SseEvent[] = [];
    for await (const event of readSse(source())) out.push(event);
    expect(out).toEqual([{ data: "🌍" }]);
  });
});
