/**
 * `rienda acp` end to end, driven by the SDK's own client over the child's
 * stdio against the scripted provider; every message both ways checked
 * against the schema the SDK ships (test/support/acp-schema.ts).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { AcpClient } from "../support/acp-client.ts";
import { scenario, type Scenario } from "../support/scenario.ts";

let s: Scenario | undefined;
let client: AcpClient | undefined;
afterEach(async () => {
  if (client && client.child.exitCode === null) client.child.kill("SIGKILL");
  client = undefined;
  await s?.dispose();
  s = undefined;
});

function expectValid(c: AcpClient): void {
  expect(c.schema.problems).toEqual([]);
  expect(c.schema.count).toBeGreaterThan(0);
}

describe("rienda acp", () => {
  test("smoke", async () => {
    s = await scenario();
    s.server.script({ text: "Hello from the model." });
    client = new AcpClient(s.inst, ["-a", "coder"]);
    const init = await client.initialize();
    expect(init.agentCapabilities?.loadSession).toBe(true);
    const created = await client.agent.request("session/new", { cwd: s.inst.workspace, mcpServers: [] });
    const answer = await client.agent.request("session/prompt", { sessionId: created.sessionId, prompt: [{ type: "text", text: "hi" }] });
    expect(answer.stopReason).toBe("end_turn");
    expect(AcpClient.text(client.updatesOf(created.sessionId))).toBe("Hello from the model.");
    expect((await client.close()).code).toBe(0);
    expectValid(client);
  });
});
