/**
 * Every recording of the corpus (test/corpus) served byte for byte by the
 * scripted provider to the built binary, `rienda run --json`: the stored
 * message (text, thinking, tool calls, stop reason, usage, model) or the
 * error must be what the recording holds, and for answers with tool calls
 * the next request must send back what the protocol needs.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { EXPECTED } from "../support/corpus-expectations.ts";
import { Instance } from "../support/instance.ts";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";
import { configFor } from "../support/scenario.ts";
import { listRecordings, type Recording } from "../support/recorded-corpus.ts";

type Event = Record<string, unknown> & { type: string };
const eventsOf = (stdout: string): Event[] =>
  stdout
    .trim()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Event);

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(async () => {
  await server.close();
});

async function runRecording(
  rec: Recording,
  modelExtra?: string,
): Promise<{ events: Event[]; code: number | null; stderr: string }> {
  server.reset();
  const inst = new Instance();
  try {
    inst.config(configFor(server.url, { protocol: rec.protocol, ...(modelExtra ? { modelExtra } : {}) }));
    inst.agent("coder", "---\ndescription: corpus replay\nmodel: p/m\n---\nYou replay recordings.\n");
    // The recording answers first; any later request (after tool results, or a retry) gets a plain answer.
    server.script({ recorded: rec.body }, { text: "done after the recording" }, { text: "done after the recording" });
    const r = await inst.run(["run", "-a", "coder", "-p", "replay", "--json"]);
    return { events: eventsOf(r.stdout), code: r.code, stderr: r.stderr };
  } finally {
    inst.dispose();
  }
}

describe("the recorded corpus through the binary", () => {
  for (const rec of listRecordings()) {
    const key = `${rec.protocol}/${rec.file}`;
    test(key, async () => {
      const expected = EXPECTED[key];
      expect(expected).toBeDefined();
      if (!expected) return;
      const { events, code } = await runRecording(rec);
      const end = events[events.length - 1];
      if (expected.error) {
        if (expected.error.retryable) {
          // Retried, then answered by the scripted turn.
          expect(events.find((e) => e.type === "retry")?.message).toContain(expected.error.messageIncludes ?? "");
          expect(end).toMatchObject({ type: "run_end", reason: "end_turn" });
        } else {
          expect(code).toBe(1);
          expect(String(events.find((e) => e.type === "error")?.message)).toContain(
            expected.error.messageIncludes ?? "",
          );
          expect(end).toMatchObject({ type: "run_end", reason: "error" });
          expect(server.requests).toHaveLength(1);
        }
        return;
      }
      if (expected.text === "" && (expected.calls ?? []).length === 0 && !expected.thinking) {
        // Nothing for us in it (a server-run tool alone): an empty answer, retried; never a call of ours.
        expect(String(events.find((e) => e.type === "retry")?.message)).toContain("empty answer");
        expect(events.filter((e) => e.type === "tool_call")).toHaveLength(0);
        expect(end).toMatchObject({ type: "run_end", reason: "end_turn" });
        return;
      }
      const first = events.find((e) => e.type === "message_end");
      expect(first).toBeDefined();
      if (!first) return;
      if (expected.text !== undefined) expect(first.text).toBe(expected.text);
      if (expected.thinking !== undefined) expect(first.thinking).toBe(expected.thinking);
      if (expected.calls !== undefined) {
        const calls = first.toolCalls as Array<{ id: string; name: string; arguments: unknown }>;
        expect(calls.map((c) => ({ name: c.name, arguments: c.arguments }))).toEqual(
          expected.calls.map((c) => ({ name: c.name, arguments: c.arguments })),
        );
        for (const [n, call] of expected.calls.entries()) if (call.id) expect(calls[n]?.id).toBe(call.id);
      }
      if (expected.stop !== undefined) expect(first.stopReason).toBe(expected.stop);
      if (expected.usage !== undefined) expect(first.usage).toEqual(expected.usage);
      if (expected.model !== undefined) expect(first.model).toBe(expected.model);
      // Tool calls of a recording name tools this agent lacks: each gets an error result and the run goes on.
      const calls = (first.toolCalls as unknown[]).length;
      if (calls > 0) {
        expect(events.filter((e) => e.type === "tool_result" && e.isError === true)).toHaveLength(calls);
        expect(server.requests.length).toBeGreaterThanOrEqual(2);
      }
    });
  }

  test("Responses: the next request carries the recorded reasoning item with its encrypted content", async () => {
    const rec = listRecordings().find((r) => r.file === "reasoning-encrypted-content.1.chunks.txt");
    if (!rec) throw new Error("recording missing");
    const { code } = await runRecording(rec);
    expect(code).toBe(0);
    const second = server.requests[1]?.body as {
      input: Array<Record<string, unknown>>;
      include?: string[];
      store?: boolean;
    };
    expect(second.store).toBe(false);
    const reasoning = second.input.find((item) => item.type === "reasoning");
    expect(reasoning?.id).toBe("rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9");
    expect(String(reasoning?.encrypted_content)).toStartWith("gAAAAABpPDIVOKrsHNZ0");
    const order = second.input.map((item) => String(item.type ?? item.role));
    expect(order.indexOf("reasoning")).toBeLessThan(order.indexOf("function_call"));
  });

  test("Anthropic: the next request carries both redacted_thinking blocks", async () => {
    const rec = listRecordings().find((r) => r.file === "thinking-part-redacted-stream.cassette.yaml");
    if (!rec) throw new Error("recording missing");
    server.reset();
    const inst = new Instance();
    try {
      inst.config(configFor(server.url, { protocol: "anthropic", modelExtra: "        thinking_max_tokens: 1024" }));
      inst.agent("coder", "---\ndescription: corpus replay\nmodel: p/m\n---\nYou replay recordings.\n");
      server.script({ recorded: rec.body }, { text: "second answer" });
      const first = await inst.run(["run", "-a", "coder", "-p", "replay", "--json"]);
      expect(first.code).toBe(0);
      const sessionId = String(eventsOf(first.stdout)[0]?.sessionId);
      const second = await inst.run(["run", "-a", "coder", "-s", sessionId, "-p", "again", "--json"]);
      expect(second.code).toBe(0);
      const body = server.requests[1]?.body as {
        messages: Array<{ role: string; content: Array<Record<string, unknown>> }>;
      };
      const assistant = body.messages.find((m) => m.role === "assistant");
      expect(assistant?.content.map((b) => b.type)).toEqual(["redacted_thinking", "redacted_thinking", "text"]);
      expect(String(assistant?.content[0]?.data)).toStartWith("EqkECkYIBxgCKkA8AZ4n");
    } finally {
      inst.dispose();
    }
  });
});
