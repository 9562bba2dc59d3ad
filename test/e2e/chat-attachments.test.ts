/**
 * `/file` in the interactive chat (tmux, scripted provider): a file attached
 * to the next message goes with it, once; a refused file changes nothing.
 */
import { afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { scenario, type Scenario } from "../support/scenario.ts";
import { messageEntries, sessionFiles } from "../support/session-reader.ts";
import { hasTmux, Terminal } from "../support/tmux.ts";

setDefaultTimeout(60_000);

let s: Scenario | undefined;
let term: Terminal | undefined;
afterEach(async () => {
  term?.dispose();
  term = undefined;
  await s?.dispose();
  s = undefined;
});
beforeAll(() => {
  if (!hasTmux()) throw new Error("these tests need tmux (apt-get install -y tmux)");
});

type ChatMessage = { role: string; content: unknown };
const lastUserOf = (index: number): unknown =>
  (s!.server.requests[index]!.body as { messages: ChatMessage[] }).messages.filter((m) => m.role === "user").pop()
    ?.content;

describe("/file in the chat", () => {
  test("an attached file goes with the next message only, and is kept in the session", async () => {
    s = await scenario();
    s.inst.file("notes.txt", "buy milk\n");
    s.server.script({ text: "One item." }, { text: "Nothing else." });
    term = Terminal.start(s.inst, { args: ["-a", "coder"] });
    await term.waitForPrompt();
    term.line("/file");
    await term.waitFor("nothing is attached");
    term.line("/file notes.txt");
    await term.waitFor("attached notes.txt (text, 9 bytes) to your next message");
    term.line("/file");
    await term.waitFor("attached: notes.txt (text, 9 bytes)");
    term.line("what is on my list?");
    await term.waitForPrompt(1);
    term.line("anything else?");
    await term.waitForPrompt(2);
    term.keys("C-d");
    expect(await term.exitCode()).toBe(0);

    expect(lastUserOf(0)).toBe('<document name="notes.txt">\nbuy milk\n</document>\n\nwhat is on my list?');
    expect(lastUserOf(1)).toBe("anything else?");
    const file = sessionFiles(s.inst.home)[0]!;
    const users = messageEntries(file).filter((e) => e.role === "user") as unknown as { blocks: unknown[] }[];
    expect(users.map((u) => u.blocks)).toEqual([
      [
        { type: "attachment", name: "notes.txt", mediaType: "text/plain", text: "buy milk\n" },
        { type: "text", text: "what is on my list?" },
      ],
      [{ type: "text", text: "anything else?" }],
    ]);
  });

  test("a missing or binary file is refused by name and nothing is attached", async () => {
    s = await scenario();
    s.inst.file("blob.bin", "\u0000\u0001\u0002binary");
    s.server.script({ text: "ok" });
    term = Terminal.start(s.inst, { args: ["-a", "coder"] });
    await term.waitForPrompt();
    term.line("/file missing.txt");
    await term.waitFor(/error: .*missing\.txt/);
    term.line("/file blob.bin");
    await term.waitFor(/error: .*blob\.bin/);
    term.line("/file");
    await term.waitFor("nothing is attached");
    term.line("hello");
    await term.waitForPrompt(1);
    term.keys("C-d");
    expect(await term.exitCode()).toBe(0);
    expect(lastUserOf(0)).toBe("hello");
  });
});
