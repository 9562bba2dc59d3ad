/**
 * After Ctrl-C, the next prompt on the same session is a message of its own,
 * and the model is told that the first request was interrupted, in every
 * wire protocol. The interruption is an entry of the session file.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { PROTOCOLS, scenario, type Scenario } from "../support/scenario.ts";
import { readEntries, sessionFile, sessionIdFrom } from "../support/session-reader.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

/** Role and text of each message of a request, whatever the protocol. */
function turnsOf(body: unknown): { role: string; text: string }[] {
  const b = body as { messages?: unknown[]; input?: unknown[] };
  const items = (b.input ?? b.messages ?? []) as { role?: string; content?: unknown }[];
  return items
    .filter((m) => m.role === "user" || m.role === "assistant")
    .map((m) => ({ role: m.role!, text: textOf(m.content) }));
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (typeof (part as { text?: unknown }).text === "string" ? (part as { text: string }).text : "")).join("");
}

describe("an interrupted prompt", () => {
  for (const protocol of PROTOCOLS) {
    test(`is shown as interrupted and the next prompt is a separate message (${protocol})`, async () => {
      s = await scenario({ protocol });
      s.server.script({ text: "Deleting", hang: true });
      const run = s.inst.start(["run", "-a", "coder", "-p", "delete every file"]);
      await s.server.waitForRequests(1);
      run.kill("SIGINT");
      const r = await run.done;
      expect(r.code).toBe(130);
      const id = sessionIdFrom(r.stderr);
      const entries = readEntries(sessionFile(s.inst.home, id));
      const prompt = entries.find((e) => e.kind === "message")!;
      expect(entries.find((e) => e.kind === "interruption")).toMatchObject({ parentId: prompt.id });

      s.server.script({ text: "ok, nothing deleted" });
      const next = await s.inst.run(["run", "-s", id, "-p", "never mind"]);
      expect(next.code).toBe(0);
      const turns = turnsOf(s.server.requests[1]!.body);
      expect(turns.map((t) => t.role)).toEqual(["user", "assistant", "user"]);
      expect(turns[0]!.text).toBe("delete every file");
      expect(turns[1]!.text).toContain("interrupted");
      expect(turns[2]!.text).toBe("never mind");
    });
  }
});

describe("a prompt whose run failed", () => {
  for (const protocol of PROTOCOLS) {
    test(`is shown as failed and the next prompt is a separate message (${protocol})`, async () => {
      s = await scenario({ protocol });
      s.server.script({ error: { status: 400, message: "bad request" } });
      const r = await s.inst.run(["run", "-a", "coder", "-p", "delete every file"]);
      expect(r.code).toBe(1);
      const id = sessionIdFrom(r.stderr);
      const entries = readEntries(sessionFile(s.inst.home, id));
      const prompt = entries.find((e) => e.kind === "message")!;
      expect(entries.find((e) => e.kind === "interruption")).toMatchObject({ parentId: prompt.id, reason: "error" });

      s.server.script({ text: "ok, nothing deleted" });
      const next = await s.inst.run(["run", "-s", id, "-p", "never mind"]);
      expect(next.code).toBe(0);
      const turns = turnsOf(s.server.requests[1]!.body);
      expect(turns.map((t) => t.role)).toEqual(["user", "assistant", "user"]);
      expect(turns[0]!.text).toBe("delete every file");
      expect(turns[1]!.text).toBe("[This request failed before it was finished: the run ended with an error. What follows is a new message.]");
      expect(turns[2]!.text).toBe("never mind");
    });
  }
});
