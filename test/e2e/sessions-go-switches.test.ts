/**
 * A session file of the current Go Rienda, with its model, thinking and
 * agent switches linked on the chain (go-current.md §5), continued with
 * `rienda run -s`: the request carries the model and agent of the active
 * branch and that branch's history; `sessions`, `sessions show` and `--tree`
 * read it; and the switches ours writes are in the same shape, on the chain.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { scenario, systemOf, type Scenario } from "../support/scenario.ts";
import { messageEntries, readEntries, sessionFile, sessionIdFrom } from "../support/session-reader.ts";
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

const ID = "01jr0g0se551on000000000000";

/** Any directory ending in `-<hash8>` of the workspace is the workspace's (docs/sessions.md). */
function goSessionPath(sc: Scenario): string {
  const hash8 = createHash("sha256").update(sc.inst.workspace).digest("hex").slice(0, 8);
  return join(sc.inst.riendaPath("sessions"), `go-style-${hash8}`, `${ID}.jsonl`);
}

const text = (t: string) => [{ type: "text", text: t }];

/**
 * u1 a1, then on one branch a model switch to p/big, a thinking switch and
 * an agent switch to reviewer (each the parent of the next entry), u2 a2;
 * on the other, reached by a leaf entry back to a1, u3 a3 with no switch.
 * `leafAt` picks which branch is active: the file ends with a leaf entry there.
 */
function goSession(workdir: string, leafAt: "a2" | "a3"): string {
  const lines = [
    {
      kind: "header",
      version: 1,
      id: ID,
      createdAt: "2026-02-01T10:00:00.123456789Z",
      agent: "coder",
      model: "p/m",
      workdir,
    },
    { kind: "message", id: "u1", createdAt: "2026-02-01T10:00:01Z", role: "user", blocks: text("first question") },
    {
      kind: "message",
      id: "a1",
      parentId: "u1",
      createdAt: "2026-02-01T10:00:02Z",
      role: "assistant",
      responseStopReason: "end_turn",
      blocks: text("first answer"),
    },
    {
      kind: "model",
      id: "sw-model",
      parentId: "a1",
      createdAt: "2026-02-01T10:00:03Z",
      modelRef: "p/big",
      previousModelRef: "p/m",
    },
    {
      kind: "thinking",
      id: "sw-thinking",
      parentId: "sw-model",
      createdAt: "2026-02-01T10:00:04Z",
      thinkingLevel: "high",
    },
    {
      kind: "agent",
      id: "sw-agent",
      parentId: "sw-thinking",
      createdAt: "2026-02-01T10:00:05Z",
      agentId: "reviewer",
      previousAgentId: "coder",
    },
    {
      kind: "message",
      id: "u2",
      parentId: "sw-agent",
      createdAt: "2026-02-01T10:00:06Z",
      role: "user",
      blocks: text("switched question"),
    },
    {
      kind: "message",
      id: "a2",
      parentId: "u2",
      createdAt: "2026-02-01T10:00:07Z",
      role: "assistant",
      responseStopReason: "end_turn",
      blocks: text("switched answer"),
    },
    { kind: "leaf", targetId: "a1", createdAt: "2026-02-01T10:00:08Z" },
    {
      kind: "message",
      id: "u3",
      parentId: "a1",
      createdAt: "2026-02-01T10:00:09Z",
      role: "user",
      blocks: text("plain question"),
    },
    {
      kind: "message",
      id: "a3",
      parentId: "u3",
      createdAt: "2026-02-01T10:00:10Z",
      role: "assistant",
      responseStopReason: "end_turn",
      blocks: text("plain answer"),
    },
    { kind: "leaf", targetId: leafAt, createdAt: "2026-02-01T10:00:11Z" },
  ];
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

async function goScenario(leafAt: "a2" | "a3"): Promise<Scenario> {
  const sc = await scenario({ modelExtra: "      big:\n        id: big-wire" });
  sc.inst.agent("reviewer", "---\ndescription: Reviews.\nmodel: p/m\n---\nYou are the reviewer.\n");
  sc.inst.write(goSessionPath(sc), goSession(sc.inst.workspace, leafAt));
  return sc;
}

type ChatBody = { model: string; messages: { role: string; content: string }[] };

describe("a Go session with switches on the chain", () => {
  test("rienda run -s continues the active branch with its model and agent, and its history", async () => {
    s = await goScenario("a2");
    s.server.script({ text: "continued" });
    const r = await s.inst.run(["run", "-s", ID, "-p", "next question"]);
    expect(r.code).toBe(0);
    expect(sessionIdFrom(r.stderr)).toBe(ID);
    expect(r.stdout).toBe("continued\n");
    const request = s.server.requests[0]!;
    const body = request.body as ChatBody;
    // The branch's model entry names p/big of config.yaml, its agent entry the reviewer (whose own model is p/m).
    expect(body.model).toBe("big-wire");
    // Its thinking entry's level, on the wire as chat completions carry it.
    expect((request.body as Record<string, unknown>).reasoning_effort).toBe("high");
    expect(systemOf(request)).toBe("You are the reviewer.");
    expect(body.messages.slice(1)).toEqual([
      { role: "user", content: "first question" },
      { role: "assistant", content: "first answer" },
      { role: "user", content: "switched question" },
      { role: "assistant", content: "switched answer" },
      { role: "user", content: "next question" },
    ]);
    // Nothing switched: no switch entry written, the prompt follows the branch's last answer.
    const added = readEntries(goSessionPath(s)).slice(12);
    expect(added.map((e) => [e.kind, e.role, e.parentId])).toEqual([
      ["message", "user", "a2"],
      ["message", "assistant", added[0]!.id],
    ]);
  });

  test("the other branch runs with the header's model and agent: a switch on one branch does not count on another", async () => {
    s = await goScenario("a3");
    s.server.script({ text: "plain continued" });
    const r = await s.inst.run(["run", "-s", ID, "-p", "next question"]);
    expect(r.code).toBe(0);
    const request = s.server.requests[0]!;
    expect((request.body as ChatBody).model).toBe("wire-model");
    expect("reasoning_effort" in (request.body as Record<string, unknown>)).toBe(false);
    expect(systemOf(request)).toBe("You are a test agent.");
    expect((request.body as ChatBody).messages.slice(1).map((m) => m.content)).toEqual([
      "first question",
      "first answer",
      "plain question",
      "plain answer",
      "next question",
    ]);
  });

  test("--at an answer of the switched branch runs with that branch's model", async () => {
    s = await goScenario("a3");
    s.server.script({ text: "there" });
    const r = await s.inst.run(["run", "-s", ID, "--at", "u2", "-p", "instead"]);
    expect(r.code).toBe(0);
    expect((s.server.requests[0]!.body as ChatBody).model).toBe("big-wire");
    expect((s.server.requests[0]!.body as ChatBody).messages.slice(1).map((m) => m.content)).toEqual([
      "first question",
      "first answer",
      "instead",
    ]);
    // In u2's place: after the switches u2 followed.
    const prompt = readEntries(goSessionPath(s)).find(
      (e) => e.kind === "message" && JSON.stringify(e.blocks).includes("instead"),
    );
    expect(prompt!.parentId).toBe("sw-agent");
  });

  test("sessions lists, shows and draws it as its active branch says", async () => {
    s = await goScenario("a2");
    const listed = JSON.parse((await s.inst.run(["sessions", "--json"])).stdout) as {
      id: string;
      agent: string;
      model: string;
    }[];
    expect(listed.find((x) => x.id === ID)).toMatchObject({ agent: "reviewer", model: "p/big" });
    const shown = await s.inst.run(["sessions", "show", ID]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`session ${ID} · agent reviewer · model p/big · ${s.inst.workspace}\n`);
    expect(shown.stdout).toContain(
      "first answer\n\n[model switched to p/big]\n\n[thinking set to high]\n\n[agent switched to reviewer]\n\n── user u2\nswitched question\n",
    );
    const tree = await s.inst.run(["sessions", "show", ID, "--tree"]);
    expect(tree.stdout.split("\n").slice(3).join("\n")).toBe(
      [
        "* u1  user: first question",
        "* a1  assistant: first answer",
        "├─ * u2  user: switched question",
        "│  * a2  assistant: switched answer  (leaf)",
        "└─   u3  user: plain question",
        "     a3  assistant: plain answer",
        "",
      ].join("\n"),
    );
  });

  test("a switch ours makes (-s with -m) is written in the Go shape on the chain", async () => {
    s = await goScenario("a3");
    s.server.script({ text: "big now" }, { text: "still big" });
    const r = await s.inst.run(["run", "-s", ID, "-m", "p/big", "-p", "use the big one"]);
    expect(r.code).toBe(0);
    expect((s.server.requests[0]!.body as ChatBody).model).toBe("big-wire");
    const added = readEntries(goSessionPath(s)).slice(12);
    expect(Object.keys(added[0]!)).toEqual(["kind", "id", "parentId", "createdAt", "modelRef", "previousModelRef"]);
    expect(added[0]).toMatchObject({ kind: "model", parentId: "a3", modelRef: "p/big", previousModelRef: "p/m" });
    expect(added[1]).toMatchObject({ kind: "message", role: "user", parentId: added[0]!.id });
    // A later -s without -m keeps the branch's model.
    expect((await s.inst.run(["run", "-s", ID, "-p", "again"])).code).toBe(0);
    expect((s.server.requests[1]!.body as ChatBody).model).toBe("big-wire");
  });
});

describe("a branch keeps what it ran with (issue 41)", () => {
  test("after /model and /tree in the chat, the branch records the model its turn ran, so rienda -s runs the same", async () => {
    s = await scenario({ modelExtra: "      big:\n        id: big-wire" });
    s.server.script({ text: "a1" });
    const id = sessionIdFrom((await s.inst.run(["run", "-a", "coder", "-p", "q1"])).stderr);
    const [, a1] = messageEntries(sessionFile(s.inst.home, id));
    s.server.script({ text: "a2" }, { text: "a3" }, { text: "a4" });
    term = Terminal.start(s.inst, { args: ["-s", id] });
    await term.waitForPrompt();
    term.line("/model p/big");
    await term.waitFor("model: p/big");
    term.line("q2");
    await term.waitForPrompt(1);
    expect((s.server.requests[1]!.body as ChatBody).model).toBe("big-wire");
    term.line(`/tree ${a1!.id}`);
    await term.waitFor(`continuing from ${a1!.id}`);
    await term.waitForPrompt(1);
    term.line("q3");
    await term.waitForPrompt(2);
    term.keys("C-d");
    expect(await term.exitCode()).toBe(0);
    const chatRan = (s.server.requests[2]!.body as ChatBody).model;
    expect((s.server.requests[2]!.body as ChatBody).messages.slice(1).map((m) => m.content)).toEqual([
      "q1",
      "a1",
      "q3",
    ]);
    expect((await s.inst.run(["run", "-s", id, "-p", "q4"])).code).toBe(0);
    expect((s.server.requests[3]!.body as ChatBody).model).toBe(chatRan);
    expect((s.server.requests[3]!.body as ChatBody).messages.slice(1).map((m) => m.content)).toEqual([
      "q1",
      "a1",
      "q3",
      "a3",
      "q4",
    ]);
  });
});
