/**
 * A real writer process killed with SIGKILL at seeded random moments: the
 * session must load every time, hold only whole messages in order, and take
 * the next append cleanly.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../../src/providers/index.ts";
import { INTERRUPTION_TEXT, openSession } from "../../src/sessions/index.ts";
import { tempHome } from "./helpers.ts";
import { seededRandom } from "../support/random.ts";

const WRITER = join(import.meta.dir, "fixtures/append-until-killed.ts");

/**
 * The writer's own messages: a writer killed after a user message left it
 * unanswered, and opening the session over its stale lock records that
 * interruption, which the history shows as an answer of its own.
 */
function written(session: { messages(): Message[] }): Message[] {
  return session.messages().filter((m) => (m.blocks[0] as { text?: string }).text !== INTERRUPTION_TEXT);
}

/** Starts the writer, waits for its id, lets it write for `ms`, then kills it with SIGKILL. */
async function writeThenKill(home: string, workdir: string, id: string | undefined, ms: number): Promise<string> {
  const child = spawn(process.execPath, [WRITER, home, workdir, ...(id ? [id] : [])], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve();
    });
    child.on("close", () => reject(new Error(`writer exited early: ${err}`)));
  });
  await new Promise((r) => setTimeout(r, ms));
  child.kill("SIGKILL");
  await closed;
  return out.trim();
}

describe("crash safety with a real writer", () => {
  let t: ReturnType<typeof tempHome>;
  beforeEach(() => (t = tempHome()));
  afterEach(() => t.dispose());

  for (const seed of [1, 2, 3, 4, 5, 6]) {
    test(`seed ${seed}: after each SIGKILL the session loads, holds whole messages in order and continues`, async () => {
      const random = seededRandom(seed);
      let id: string | undefined;
      let previous = 0;
      for (let round = 0; round < 3; round++) {
        id = await writeThenKill(t.home, t.workdir, id, Math.floor(random() * 40));
        const session = openSession({ home: t.home, id, workdir: t.workdir });
        const messages = written(session);
        expect(messages.length).toBeGreaterThanOrEqual(previous);
        messages.forEach((m, n) => {
          expect(m.role).toBe(n % 2 ? "assistant" : "user");
          const text = (m.blocks[0] as { text: string }).text;
          expect(text).toBe(`${n}:${String.fromCharCode(97 + (n % 26)).repeat(65536)}`);
        });
        // The next append lands on a line of its own, and the file is whole lines again.
        session.appendMessage({
          role: messages.length % 2 ? "assistant" : "user",
          blocks: [
            {
              type: "text",
              text: `${messages.length}:${String.fromCharCode(97 + (messages.length % 26)).repeat(65536)}`,
            },
          ],
        });
        const text = readFileSync(session.path, "utf8");
        expect(text.endsWith("\n")).toBe(true);
        for (const line of text.slice(0, -1).split("\n")) expect(() => JSON.parse(line)).not.toThrow();
        previous = messages.length + 1;
        session.close();
        const reopened = openSession({ home: t.home, id, workdir: t.workdir });
        expect(written(reopened)).toHaveLength(previous);
        // The next writer is another process: it must find the session free.
        reopened.close();
      }
    });
  }
});
