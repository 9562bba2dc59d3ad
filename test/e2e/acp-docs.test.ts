/**
 * docs/acp.md's editor settings, tested as far as this machine allows: each
 * `agent_servers` block (Zed's, JetBrains') is read from the page and its
 * command started with the arguments and environment it gives (the binary
 * under test standing for `rienda`), then driven by the SDK's client as an
 * editor does.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AcpClient } from "../support/acp-client.ts";
import { BINARY } from "../support/instance.ts";
import { scenario, type Scenario } from "../support/scenario.ts";

const PAGE = "docs/acp.md";

interface AgentServer {
  type?: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The `agent_servers` JSON blocks of the page, with the heading they sit under. */
function settingsBlocks(): Array<{ heading: string; server: AgentServer }> {
  const text = readFileSync(join(import.meta.dir, "../..", PAGE), "utf8");
  const found: Array<{ heading: string; server: AgentServer }> = [];
  let heading = "";
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.startsWith("#")) heading = lines[i]!.replace(/^#+\s*/, "");
    if (lines[i] !== "```json") continue;
    const end = lines.indexOf("```", i + 1);
    const body = JSON.parse(lines.slice(i + 1, end).join("\n")) as { agent_servers?: Record<string, AgentServer> };
    if (body.agent_servers) found.push({ heading, server: body.agent_servers.Rienda! });
    i = end;
  }
  return found;
}

let s: Scenario | undefined;
let client: AcpClient | undefined;
afterEach(async () => {
  if (client && client.child.exitCode === null) client.child.kill("SIGKILL");
  client = undefined;
  await s?.dispose();
  s = undefined;
});

describe(PAGE, () => {
  const blocks = settingsBlocks();
  test("the page shows the settings of Zed and one more client", () => {
    expect(blocks.map((b) => b.heading)).toEqual(["Zed", "JetBrains IDEs"]);
    expect(blocks[0]!.server.type).toBe("custom");
  });

  for (const { heading, server } of blocks) {
    test(`${heading}: the command as written answers an editor`, async () => {
      expect(server.command).toBe("rienda");
      expect(server.args[0]).toBe("acp");
      s = await scenario();
      s.server.script({ text: "Hello, editor." });
      client = new AcpClient(s.inst, server.args.slice(1), { command: BINARY, env: server.env });
      const init = await client.initialize();
      expect(init.agentInfo).toMatchObject({ name: "rienda" });
      const { sessionId, modes } = await client.agent.request("session/new", { cwd: s.inst.workspace, mcpServers: [] });
      expect(modes?.currentModeId).toBe("coder");
      expect(
        (await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello" }] }))
          .stopReason,
      ).toBe("end_turn");
      expect(AcpClient.text(client.updatesOf(sessionId))).toBe("Hello, editor.");
      expect((await client.close()).code).toBe(0);
      expect(client.schema.problems).toEqual([]);
    });
  }
});
