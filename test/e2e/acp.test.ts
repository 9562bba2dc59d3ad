/**
 * `rienda acp` end to end, driven by the SDK's own client over the child's
 * stdio against the scripted provider: initialize, a new session, a tool
 * call whose permission the client grants and then refuses, a cancel
 * mid-stream, an image prompt, a load of the session in a new process, a
 * model switch; every message both ways checked against the schema the
 * SDK ships (test/support/acp-schema.ts).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ContentBlock, McpServer, SessionUpdate } from "@agentclientprotocol/sdk";
import { AcpClient } from "../support/acp-client.ts";
import { scenario, toolNamesOf, type Scenario } from "../support/scenario.ts";
import { messageEntries, readEntries, sessionFile } from "../support/session-reader.ts";

/** The MCP test server of test/fixtures/mcp, passed by the "editor". */
const MCP_TEST_SERVER = join(import.meta.dir, "../fixtures/mcp/stdio-server.mjs");

let s: Scenario | undefined;
let clients: AcpClient[] = [];
afterEach(async () => {
  for (const c of clients) if (c.child.exitCode === null) c.child.kill("SIGKILL");
  clients = [];
  await s?.dispose();
  s = undefined;
});

function start(args: string[] = ["-a", "coder"]): AcpClient {
  const c = new AcpClient(s!.inst, args);
  clients.push(c);
  return c;
}

/** No message either way broke the schema. */
function expectValid(c: AcpClient): void {
  expect(c.schema.problems).toEqual([]);
  expect(c.schema.count).toBeGreaterThan(4);
}

const PUBLISH = `module.exports = {
  description: "Publishes a file.",
  parameters: { type: "object", properties: { path: { type: "string" } }, additionalProperties: false },
  execute: function(ctx, args) {
    if (!ctx.confirm({ title: "Publish", body: "Push " + args.path + "?" })) return { text: "not allowed", isError: true };
    return "pushed " + args.path;
  },
};
`;

/** A 1x1 PNG. */
const PNG_B64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

const byKind = (updates: SessionUpdate[], kind: SessionUpdate["sessionUpdate"]) =>
  updates.filter((u) => u.sessionUpdate === kind);

describe("rienda acp", () => {
  test("a whole editor session: permission granted then refused, a cancel mid-stream, an image, a model switch, then the session loaded in a new process", async () => {
    s = await scenario({ agentFrontmatter: "tools: [publish]", modelExtra: "      m2:\n        id: wire-model-2" });
    s.inst.tool("publish", PUBLISH);
    s.server.script(
      { toolCalls: [{ id: "c1", name: "publish", arguments: { path: "notes.txt" } }] },
      { text: "Published." },
      { toolCalls: [{ id: "c2", name: "publish", arguments: { path: "secret.txt" } }] },
      { text: "Not published." },
      { text: "partial answ", hang: true },
      { text: "A red dot." },
      { text: "From the second model." },
    );
    const c = start();
    const init = await c.initialize({ fs: { readTextFile: true, writeTextFile: true }, terminal: true });
    expect(init).toMatchObject({
      protocolVersion: 1,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: true, audio: false, embeddedContext: true },
      },
      agentInfo: { name: "rienda" },
    });

    const created = await c.agent.request("session/new", { cwd: s.inst.workspace, mcpServers: [] });
    const id = created.sessionId;
    expect(created.modes).toEqual({
      currentModeId: "coder",
      availableModes: [{ id: "coder", name: "coder", description: "A test agent." }],
    });
    const model = created.configOptions?.find((o) => o.id === "model");
    expect(model).toMatchObject({ type: "select", category: "model", currentValue: "p/m" });
    expect(JSON.stringify(model)).toContain("p/m2");
    expect(created.configOptions?.find((o) => o.id === "thinking")).toMatchObject({
      category: "thought_level",
      currentValue: "off",
    });

    // 1. A tool call the client allows.
    let mark = c.updates.length;
    const first = await c.agent.request("session/prompt", {
      sessionId: id,
      prompt: [{ type: "text", text: "publish notes" }],
    });
    expect(first.stopReason).toBe("end_turn");
    expect(c.permissionRequests[0]).toMatchObject({
      sessionId: id,
      toolCall: {
        toolCallId: "c1",
        title: "Publish",
        content: [{ type: "content", content: { type: "text", text: "Push notes.txt?" } }],
      },
      options: [
        { optionId: "allow", kind: "allow_once" },
        { optionId: "reject", kind: "reject_once" },
      ],
    });
    let updates = c.updatesOf(id, mark);
    expect(byKind(updates, "tool_call")[0]).toMatchObject({
      toolCallId: "c1",
      title: "publish: notes.txt",
      status: "in_progress",
      locations: [{ path: join(s.inst.workspace, "notes.txt") }],
      rawInput: { path: "notes.txt" },
    });
    expect(byKind(updates, "tool_call_update").at(-1)).toMatchObject({
      toolCallId: "c1",
      status: "completed",
      content: [{ type: "content", content: { type: "text", text: "pushed notes.txt" } }],
    });
    expect(AcpClient.text(updates)).toBe("Published.");

    // 2. The same tool call refused.
    c.permissions = () => ({ outcome: { outcome: "selected", optionId: "reject" } });
    mark = c.updates.length;
    expect(
      (
        await c.agent.request("session/prompt", {
          sessionId: id,
          prompt: [{ type: "text", text: "publish the secret" }],
        })
      ).stopReason,
    ).toBe("end_turn");
    updates = c.updatesOf(id, mark);
    expect(byKind(updates, "tool_call_update").at(-1)).toMatchObject({
      toolCallId: "c2",
      status: "failed",
      content: [{ type: "content", content: { type: "text", text: "not allowed" } }],
    });
    expect(AcpClient.text(updates)).toBe("Not published.");

    // 3. A cancel while the answer streams.
    mark = c.updates.length;
    const hanging = c.agent.request("session/prompt", {
      sessionId: id,
      prompt: [{ type: "text", text: "write a long story" }],
    });
    await c.until(() => AcpClient.text(c.updatesOf(id, mark)).includes("partial"), "the first chunk");
    await c.agent.notify("session/cancel", { sessionId: id });
    expect((await hanging).stopReason).toBe("cancelled");

    // 4. An image.
    mark = c.updates.length;
    const image = await c.agent.request("session/prompt", {
      sessionId: id,
      prompt: [
        { type: "text", text: "what is this?" },
        { type: "image", mimeType: "image/png", data: PNG_B64 },
      ],
    });
    expect(image.stopReason).toBe("end_turn");
    const sent = JSON.stringify(s.server.requests[5]!.body);
    expect(sent).toContain(`data:image/png;base64,${PNG_B64}`);
    expect(sent).toContain("what is this?");
    // The turn before is in the history as interrupted.
    expect(sent).toContain("write a long story");

    // 5. A model switch, then a prompt that goes to that model.
    const switched = await c.agent.request("session/set_config_option", {
      sessionId: id,
      configId: "model",
      value: "p/m2",
    });
    expect(switched.configOptions.find((o) => o.id === "model")).toMatchObject({ currentValue: "p/m2" });
    expect(
      (await c.agent.request("session/prompt", { sessionId: id, prompt: [{ type: "text", text: "and you?" }] }))
        .stopReason,
    ).toBe("end_turn");
    expect((s.server.requests[6]!.body as { model: string }).model).toBe("wire-model-2");

    expect((await c.close()).code).toBe(0);
    expectValid(c);
    // The session file holds the whole conversation, and nothing holds its lock.
    const path = sessionFile(s.inst.home, id);
    expect(messageEntries(path).filter((m) => m.role === "user").length).toBeGreaterThanOrEqual(5);
    expect(existsSync(path.replace(/\.jsonl$/, ".lock"))).toBe(false);

    // 6. The session loaded by another process: its history replayed as updates before the answer.
    const d = start([]);
    await d.initialize();
    const loaded = await d.agent.request("session/load", { sessionId: id, cwd: s.inst.workspace, mcpServers: [] });
    expect(loaded.configOptions?.find((o) => o.id === "model")).toMatchObject({ currentValue: "p/m2" });
    const replay = d.updatesOf(id);
    expect(AcpClient.text(replay, "user_message_chunk")).toBe(
      "publish notespublish the secretwrite a long storywhat is this?and you?",
    );
    expect(AcpClient.text(replay)).toContain("Published.");
    // The cancelled answer was kept as far as it had come.
    expect(AcpClient.text(replay)).toContain("Not published.partial");
    expect(byKind(replay, "tool_call").map((u) => (u as { toolCallId: string }).toolCallId)).toEqual(["c1", "c2"]);
    expect(byKind(replay, "tool_call_update")).toMatchObject([
      { toolCallId: "c1", status: "completed" },
      { toolCallId: "c2", status: "failed" },
    ]);
    expect(replay.find((u) => u.sessionUpdate === "user_message_chunk" && u.content.type === "image")).toMatchObject({
      content: { type: "image", mimeType: "image/png", data: PNG_B64 },
    });
    expect((await d.close()).code).toBe(0);
    expectValid(d);
  });
});

describe("rienda acp: what an editor sees and sends", () => {
  test("a shell call's live output and result, thinking as thought chunks, the context used, a limit as max_turn_requests, -y asking nothing", async () => {
    s = await scenario({
      agentFrontmatter: "tools: [shell]\nmax_turns: 2",
      modelExtra: "        context_window: 8000",
    });
    s.server.script(
      {
        thinking: "Let me look.",
        toolCalls: [{ id: "sh1", name: "shell", arguments: { command: "echo live-line; echo done" } }],
        usage: { input: 100, output: 20 },
      },
      { toolCalls: [{ id: "sh2", name: "shell", arguments: { command: "echo again" } }] },
    );
    const c = start(["-a", "coder", "-y"]);
    await c.initialize();
    const { sessionId } = await c.agent.request("session/new", { cwd: s.inst.workspace, mcpServers: [] });
    const answer = await c.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "look around" }],
    });
    expect(answer.stopReason).toBe("max_turn_requests");
    const updates = c.updatesOf(sessionId);
    expect(AcpClient.text(updates, "agent_thought_chunk")).toBe("Let me look.");
    expect(byKind(updates, "tool_call")[0]).toMatchObject({
      toolCallId: "sh1",
      kind: "execute",
      title: "echo live-line; echo done",
      status: "in_progress",
    });
    const live = byKind(updates, "tool_call_update").filter((u) => (u as { toolCallId: string }).toolCallId === "sh1");
    expect(JSON.stringify(live.slice(0, -1))).toContain("live-line");
    expect(live.at(-1)).toMatchObject({ status: "completed" });
    expect(JSON.stringify(live.at(-1))).toContain("live-line\\ndone");
    expect(byKind(updates, "usage_update")[0]).toEqual({ sessionUpdate: "usage_update", used: 120, size: 8000 });
    // The limit is said in words too (no notices capability: a line of the agent's message).
    expect(AcpClient.text(updates)).toContain("max_turns");
    expect(c.permissionRequests).toEqual([]);
    expect((await c.close()).code).toBe(0);
    expectValid(c);
  });

  test("embedded context, a link to a workspace file, the agent switched as a mode, notices where the client shows them", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.inst.agent("reviewer", ["---", "description: Reviews.", "model: p/m", "---", "You review.", ""].join("\n"));
    const linked = s.inst.file("src/linked.txt", "linked file body\n");
    s.server.script({ text: "Seen." }, { text: "Reviewed." });
    const c = start(["-a", "coder"]);
    await c.initialize({ session: { notices: {} } });
    const mcpServers: McpServer[] = [
      { name: "editor tools", command: "node", args: [MCP_TEST_SERVER], env: [] },
      { type: "sse", name: "old-style", url: "http://127.0.0.1:9/sse", headers: [] },
    ];
    const created = await c.agent.request("session/new", { cwd: s.inst.workspace, mcpServers });
    const sessionId = created.sessionId;
    expect(created.modes?.availableModes.map((m) => m.id)).toEqual(["coder", "reviewer"]);
    const prompt: ContentBlock[] = [
      { type: "text", text: "compare these" },
      {
        type: "resource",
        resource: { uri: `file://${s.inst.workspace}/unsaved.ts`, mimeType: "text/plain", text: "const unsaved = 1;" },
      },
      { type: "resource_link", name: "linked.txt", uri: `file://${linked}` },
    ];
    expect((await c.agent.request("session/prompt", { sessionId, prompt })).stopReason).toBe("end_turn");
    const sent = JSON.stringify(s.server.requests[0]!.body);
    expect(sent).toContain("compare these");
    expect(sent).toContain(`${s.inst.workspace}/unsaved.ts:`);
    expect(sent).toContain("const unsaved = 1;");
    expect(sent).toContain("linked file body");
    // The editor's stdio server is started and all its tools offered (its name made a tool prefix); SSE is refused with a notice.
    expect(toolNamesOf(s.server.requests[0]!)).toEqual(
      expect.arrayContaining(["shell", "editor_tools__echo", "editor_tools__slow"]),
    );
    const notices = JSON.stringify(byKind(c.updatesOf(sessionId), "notice"));
    expect(notices).toContain("old-style");
    expect(notices).toContain("not SSE");

    const mark = c.updates.length;
    await c.agent.request("session/set_mode", { sessionId, modeId: "reviewer" });
    expect(byKind(c.updatesOf(sessionId, mark), "current_mode_update")).toMatchObject([{ currentModeId: "reviewer" }]);
    expect(
      (await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "review" }] })).stopReason,
    ).toBe("end_turn");
    expect(JSON.stringify(s.server.requests[1]!.body)).toContain("You review.");
    expect((await c.close()).code).toBe(0);
    expectValid(c);
  });

  test("refusals name the problem and the process goes on: an unknown agent, an unknown session, an unknown model, a busy session", async () => {
    s = await scenario();
    s.server.script({ text: "slow", hang: true });
    const bad = start(["-a", "ghost"]);
    await bad.initialize();
    await expect(bad.agent.request("session/new", { cwd: s.inst.workspace, mcpServers: [] })).rejects.toThrow(/ghost/);
    await bad.close();

    const c = start();
    await c.initialize();
    await expect(
      c.agent.request("session/load", { sessionId: "01NOSUCHSESSION", cwd: s.inst.workspace, mcpServers: [] }),
    ).rejects.toThrow(/01NOSUCHSESSION/);
    await expect(
      c.agent.request("session/prompt", { sessionId: "nope", prompt: [{ type: "text", text: "x" }] }),
    ).rejects.toThrow(/no session "nope"/);
    await expect(c.agent.request("session/new", { cwd: join(s.inst.root, "missing"), mcpServers: [] })).rejects.toThrow(
      /does not exist/,
    );
    const unused = await c.agent.request("session/new", { cwd: s.inst.workspace, mcpServers: [] });
    const { sessionId } = await c.agent.request("session/new", { cwd: s.inst.workspace, mcpServers: [] });
    await expect(
      c.agent.request("session/set_config_option", { sessionId, configId: "model", value: "p/nope" }),
    ).rejects.toThrow(/unknown model "nope" in provider "p"/);
    const running = c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
    await s.server.waitForRequests(1);
    await expect(
      c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "again" }] }),
    ).rejects.toThrow(/already running/);
    await expect(
      c.agent.request("session/set_config_option", { sessionId, configId: "thinking", value: "off" }),
    ).rejects.toThrow(/wait for the prompt/);
    // The end of stdin ends the turn as an interrupt would; the process exits 0.
    expect((await c.close()).code).toBe(0);
    await running.catch(() => undefined);
    // A session no prompt was sent to leaves no file behind; the one interrupted keeps its prompt and the partial answer.
    expect(() => sessionFile(s!.inst.home, unused.sessionId)).toThrow("no session file");
    expect(messageEntries(sessionFile(s.inst.home, sessionId)).map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(readEntries(sessionFile(s.inst.home, sessionId)).some((e) => e.kind === "interruption")).toBe(true);
    expectValid(c);
  });
});
