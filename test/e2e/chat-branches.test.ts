/** /fork, /tree and /export in the interactive chat, in a real terminal (tmux). */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { scenario, type Scenario } from "../support/scenario.ts";
import { messageEntries, readEntries, sessionFile, sessionFiles, sessionIdFrom } from "../support/session-reader.ts";
import { Terminal } from "../support/tmux.ts";

setDefaultTimeout(60_000);

let s: Scenario | undefined;
let term: Terminal | undefined;
afterEach(async () => {
  term?.dispose();
  term = undefined;
  await s?.dispose();
  s = undefined;
});

type ChatMessage = { role: string; content: unknown };
const historyOf = (index: number): string[] =>
  (s!.server.requests[index]!.body as { messages: ChatMessage[] }).messages
    .filter((m) => m.role !== "system")
    .map((m) => `${m.role}: ${typeof m.content === "string" ? m.content : JSON.stringify(m.content)}`);

/** A two-turn session made by `rienda run`. */
async function twoTurns(): Promise<string> {
  s!.server.script({ text: "a1" }, { text: "a2" });
  const id = sessionIdFrom((await s!.inst.run(["run", "-a", "coder", "-p", "q1"])).stderr);
  expect((await s!.inst.run(["run", "-s", id, "-p", "q2"])).code).toBe(0);
  return id;
}

describe("branches in the chat", () => {
  test("/fork continues in a new session naming the old one, which stays as it was; /export writes it to a new file", async () => {
    s = await scenario();
    const id = await twoTurns();
    const before = readFileSync(sessionFile(s.inst.home, id));
    s.server.script({ text: "in the fork" });
    term = Terminal.start(s.inst, { args: ["-s", id] });
    await term.waitForPrompt();
    term.line("/fork");
    const shown = await term.waitFor(/forked session \S+ into (\S+):/);
    const fork = /forked session \S+ into (\S+):/.exec(shown)![1]!;
    term.line("and in the fork?");
    await term.waitForPrompt(1);
    expect(historyOf(2)).toEqual(["user: q1", "assistant: a1", "user: q2", "assistant: a2", "user: and in the fork?"]);
    expect(readFileSync(sessionFile(s.inst.home, id))).toEqual(before);
    expect(readEntries(sessionFile(s.inst.home, fork))[0]).toMatchObject({ kind: "header", forkedFrom: id });
    expect(messageEntries(sessionFile(s.inst.home, fork))).toHaveLength(6);

    term.line("/export saved.jsonl");
    await term.waitFor(`exported session ${fork} to ${join(s.inst.workspace, "saved.jsonl")}`);
    expect(readFileSync(join(s.inst.workspace, "saved.jsonl"), "utf8")).toBe(
      readFileSync(sessionFile(s.inst.home, fork), "utf8"),
    );
    term.line("/export saved.jsonl");
    await term.waitFor("already exists; export writes a new file");
    term.keys("C-d");
    expect(await term.exitCode()).toBe(0);
    expect(sessionFiles(s.inst.home)).toHaveLength(2);
  });

  test("/tree picks a message; the next one continues from there on a new branch; at a prompt it takes its place", async () => {
    s = await scenario();
    const id = await twoTurns();
    const path = sessionFile(s.inst.home, id);
    const [q1, a1] = messageEntries(path);
    s.server.script({ text: "b2" }, { text: "fresh" });
    term = Terminal.start(s.inst, { args: ["-s", id] });
    await term.waitForPrompt();
    term.line("/tree");
    await term.waitFor("? Continue from which message?");
    // Each message by its time and first words (the id is what /tree ID takes, not what the list shows).
    expect(term.screen()).toMatch(/\* \d\d-\d\d \d\d:\d\d {2}assistant: a1\n/);
    // The active leaf (a2) is chosen first: up twice is a1.
    term.keys("Up");
    term.keys("Up");
    term.keys("Enter");
    await term.waitFor(`continuing from ${a1!.id}`);
    await term.waitForPrompt();
    term.line("another q2");
    await term.waitForPrompt(1);
    expect(historyOf(2)).toEqual(["user: q1", "assistant: a1", "user: another q2"]);
    expect(readEntries(path).some((e) => e.kind === "leaf" && e.targetId === a1!.id)).toBe(true);

    term.line(`/tree ${q1!.id}`);
    await term.waitFor("takes the place of that prompt");
    await term.waitFor("was: q1");
    term.line("start over");
    await term.waitForPrompt(2);
    expect(historyOf(3)).toEqual(["user: start over"]);
    term.line("/tree nope");
    await term.waitFor("error: session " + id + ' has no message "nope"');
    term.line("/tree");
    await term.waitFor("? Continue from which message?");
    const tree = term.screen();
    for (const text of ["user: q1", "user: q2", "user: another q2", "user: start over"]) expect(tree).toContain(text);
    term.keys("Escape");
    await term.waitForPrompt(2);
    term.keys("C-d");
    expect(await term.exitCode()).toBe(0);
    expect(existsSync(path)).toBe(true);
  });

  test("after /model, /tree back to an earlier answer runs the model that branch recorded, in the chat and in rienda -s", async () => {
    s = await scenario({ modelExtra: "      n:\n        id: wire-other" });
    s.server.script({ text: "a1" }, { text: "a2" }, { text: "b2" }, { text: "b3" });
    term = Terminal.start(s.inst, { args: ["-a", "coder"] });
    await term.waitForPrompt();
    term.line("q1");
    await term.waitForPrompt(1);
    term.line("/model p/n");
    await term.waitFor("model: p/n\n");
    await term.waitForPrompt(1);
    term.line("q2");
    await term.waitForPrompt(2);
    const [path] = sessionFiles(s.inst.home);
    const a1 = messageEntries(path!).find((e) => e.role === "assistant")!;
    term.line(`/tree ${a1.id}`);
    await term.waitFor(`continuing from ${a1.id}`);
    await term.waitForPrompt(2);
    term.line("q2 again");
    await term.waitForPrompt(3);
    const models = () => s!.server.requests.map((r) => (r.body as { model: string }).model);
    expect(models()).toEqual(["wire-model", "wire-other", "wire-model"]);
    term.keys("C-d");
    expect(await term.exitCode()).toBe(0);
    const id = readEntries(path!)[0]!.id as string;
    expect((await s.inst.run(["run", "-s", id, "-p", "q3"])).code).toBe(0);
    expect(models().at(-1)).toBe("wire-model");
  });

  test("rienda -s ID --at ENTRY and --fork start the chat on a new branch, or in a fork", async () => {
    s = await scenario();
    const id = await twoTurns();
    const [, a1] = messageEntries(sessionFile(s.inst.home, id));
    s.server.script({ text: "branched" }, { text: "forked" });
    term = Terminal.start(s.inst, { args: ["-s", id, "--at", String(a1!.id)] });
    await term.waitForPrompt();
    term.line("other");
    await term.waitForPrompt(1);
    expect(historyOf(2)).toEqual(["user: q1", "assistant: a1", "user: other"]);
    term.keys("C-d");
    expect(await term.exitCode()).toBe(0);
    term.dispose();
    const before = readFileSync(sessionFile(s.inst.home, id));
    term = Terminal.start(s.inst, { args: ["-c", "--fork"] });
    await term.waitForPrompt();
    term.line("in a fork");
    await term.waitForPrompt(1);
    expect(historyOf(3)).toEqual([
      "user: q1",
      "assistant: a1",
      "user: other",
      "assistant: branched",
      "user: in a fork",
    ]);
    expect(readFileSync(sessionFile(s.inst.home, id))).toEqual(before);
    term.keys("C-d");
    expect(await term.exitCode()).toBe(0);
    expect(sessionFiles(s.inst.home)).toHaveLength(2);
  });

  test("/fork and /export before the first message say there is nothing yet", async () => {
    s = await scenario();
    term = Terminal.start(s.inst, { args: ["-a", "coder"] });
    await term.waitForPrompt();
    term.line("/fork");
    await term.waitFor("error: nothing to fork yet");
    term.line("/export x.jsonl");
    await term.waitFor("error: nothing to export yet");
    term.line("/export");
    await term.waitFor("usage: /export PATH");
    term.keys("C-d");
    expect(await term.exitCode()).toBe(0);
    expect(sessionFiles(s.inst.home)).toHaveLength(0);
  });
});
