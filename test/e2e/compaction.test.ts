import { afterEach, describe, expect, test } from "bun:test";
import { scenario, systemOf, type Scenario } from "../support/scenario.ts";
import { messageEntries, readEntries, sessionFile, sessionIdFrom } from "../support/session-reader.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

const OLD_PROMPT = `first question ${"x".repeat(400)}`;
const OLD_ANSWER = `first answer ${"y".repeat(400)}`;

describe("compaction", () => {
  test("a history too long for the window is condensed into a summary before the request", async () => {
    s = await scenario({
      modelExtra: "        context_window: 1000",
      configExtra: "compaction: { enabled: true, reserve_tokens: 200, keep_recent_tokens: 50 }",
    });
    s.server.script({ text: OLD_ANSWER, usage: { input: 850, output: 100 } });
    const id = sessionIdFrom((await s.inst.run(["run", "-a", "coder", "-p", OLD_PROMPT])).stderr);

    s.server.script({ text: "SUMMARY: the user asked a first question about x." }, { text: "second answer" });
    const r = await s.inst.run(["run", "-s", id, "-p", "second question"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("second answer\n");
    expect(r.stderr).toContain("compacted the conversation");
    // Said before the summary request, so a chat does not sit silent while it is written.
    expect(r.stderr.indexOf("compacting the conversation: p/m is condensing 2 messages")).toBeGreaterThan(-1);
    expect(r.stderr.indexOf("compacting the conversation")).toBeLessThan(
      r.stderr.indexOf("compacted the conversation"),
    );

    const summaryRequest = s.server.requests[1]!;
    expect(JSON.stringify(summaryRequest.body)).toContain("x".repeat(400));
    expect(systemOf(summaryRequest)).toContain("condense");
    expect((summaryRequest.body as { tools?: unknown }).tools).toBeUndefined();

    const next = JSON.stringify(s.server.requests[2]!.body);
    expect(next).toContain("SUMMARY: the user asked a first question about x.");
    expect(next).toContain("second question");
    expect(next).not.toContain("x".repeat(400));
    expect(systemOf(s.server.requests[2]!)).toBe("You are a test agent.");

    const path = sessionFile(s.inst.home, id);
    const compaction = readEntries(path).find((e) => e.kind === "compaction")!;
    expect(compaction.summary).toBe("SUMMARY: the user asked a first question about x.");
    const kept = messageEntries(path).find((m) => m.id === compaction.keptId)!;
    expect(kept.blocks).toEqual([{ type: "text", text: "second question" }]);

    // The next continue starts from the summary, without a new compaction.
    s.server.script({ text: "third answer" });
    await s.inst.run(["run", "-s", id, "-p", "third"]);
    const third = JSON.stringify(s.server.requests[3]!.body);
    expect(third).toContain("SUMMARY");
    expect(third).not.toContain("y".repeat(400));
    expect(readEntries(path).filter((e) => e.kind === "compaction")).toHaveLength(1);
  });

  test("nothing is condensed without a context_window, or with compaction disabled", async () => {
    s = await scenario({ configExtra: "compaction: { enabled: true, reserve_tokens: 200, keep_recent_tokens: 50 }" });
    s.server.script({ text: OLD_ANSWER, usage: { input: 900000, output: 100 } });
    const id = sessionIdFrom((await s.inst.run(["run", "-a", "coder", "-p", OLD_PROMPT])).stderr);
    s.server.script({ text: "fine" });
    await s.inst.run(["run", "-s", id, "-p", "again"]);
    expect(s.server.requests).toHaveLength(2);
    expect(JSON.stringify(s.server.requests[1]!.body)).toContain("x".repeat(400));

    s.inst.config(
      `providers:\n  p:\n    protocol: openai_chat_completions\n    base_url: ${s.server.url}/v1\n    api_key: k\n    models:\n      m: { id: wire-model, context_window: 1000 }\ncompaction: { enabled: false }\n`,
    );
    s.server.script({ text: "fine again" });
    await s.inst.run(["run", "-s", id, "-p", "once more"]);
    expect(s.server.requests).toHaveLength(3);
    expect(JSON.stringify(s.server.requests[2]!.body)).toContain("x".repeat(400));
  });

  test("a failed summary is tried once per run, not before every request", async () => {
    s = await scenario({
      agentFrontmatter: "tools: [shell]",
      modelExtra: "        context_window: 1000",
      configExtra: "compaction: { enabled: true, reserve_tokens: 200, keep_recent_tokens: 50 }",
    });
    s.server.script({ text: OLD_ANSWER, usage: { input: 850, output: 100 } });
    const id = sessionIdFrom((await s.inst.run(["run", "-a", "coder", "-p", OLD_PROMPT])).stderr);
    s.server.script(
      { error: { status: 400, message: "no summaries" } },
      { toolCalls: [{ id: "c", name: "shell", arguments: { command: "true" } }] },
      { text: "done" },
    );
    const r = await s.inst.run(["run", "-s", id, "-p", "second"]);
    expect(r.stdout).toBe("done\n");
    expect(s.server.requests).toHaveLength(4);
  });

  test("a failed summary is a notice and the run goes on with the whole history", async () => {
    s = await scenario({
      modelExtra: "        context_window: 1000",
      configExtra: "compaction: { enabled: true, reserve_tokens: 200, keep_recent_tokens: 50 }",
    });
    s.server.script({ text: OLD_ANSWER, usage: { input: 850, output: 100 } });
    const id = sessionIdFrom((await s.inst.run(["run", "-a", "coder", "-p", OLD_PROMPT])).stderr);
    s.server.script({ error: { status: 400, message: "summaries not allowed" } }, { text: "still here" });
    const r = await s.inst.run(["run", "-s", id, "-p", "second"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("still here\n");
    expect(r.stderr).toContain("compaction failed");
    expect(JSON.stringify(s.server.requests[2]!.body)).toContain("x".repeat(400));
  });
});

describe("compaction on a server that under-reports", () => {
  test("a history whose estimate overflows the window is condensed even when the reported size is tiny", async () => {
    s = await scenario({
      modelExtra: "        context_window: 1000",
      configExtra: "compaction: { enabled: true, reserve_tokens: 200, keep_recent_tokens: 50 }",
    });
    // About 4,000 characters of history (over 1,000 estimated tokens) that the server claims is 20 tokens.
    const big = "z".repeat(2000);
    s.server.script({ text: `long answer ${big}`, usage: { input: 10, output: 10 } });
    const id = sessionIdFrom((await s.inst.run(["run", "-a", "coder", "-p", `long question ${big}`])).stderr);
    s.server.script({ text: "SUMMARY of the long exchange." }, { text: "fits now" });
    const r = await s.inst.run(["run", "-s", id, "-p", "next"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("compacted the conversation");
    expect(s.server.requests).toHaveLength(3);
    expect(JSON.stringify(s.server.requests[2]!.body)).not.toContain(big);
  });
});
