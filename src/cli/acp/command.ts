/**
 * `rienda acp [-a AGENT] [-m MODEL] [--thinking L] [-y] [--config PATH]`:
 * an Agent Client Protocol agent for editors (docs/acp.md), JSON-RPC over
 * stdin and stdout through the official SDK, loaded only here. Every
 * session an editor opens is a conversation of the chats' kind, its
 * session file the one `rienda -s ID` continues. The end of stdin ends
 * every turn as an interrupt would and exits 0; SIGINT/SIGTERM do the
 * same and exit 130. Problems of a session (a broken config, an unknown
 * agent) are answered to the request that met them; the process goes on.
 */
import { defineCommand } from "../shared/command.ts";
import { listAgents } from "../../agents/index.ts";
import { RiendaError, userMessage } from "../../errors.ts";
import { createConversation } from "../../conversation/index.ts";
import { exitWhenFlushed } from "../shared/exit.ts";
import { homeDir } from "../shared/home-dir.ts";
import { interrupts } from "../shared/interrupts.ts";
import { claimStdout } from "../shared/protocol-stdout.ts";
import { runFlags } from "../shared/run-flags.ts";
import { AcpAgent, type AcpSdk } from "./acp-agent.ts";
import { stdinStream, stdoutStream } from "./stdio-streams.ts";

const args = {
  agent: {
    type: "string",
    alias: "a",
    description: "Agent of new sessions (default: the first of ~/.rienda/agents); the editor can switch",
  },
  model: runFlags.model,
  thinking: runFlags.thinking,
  "auto-approve": runFlags["auto-approve"],
  config: runFlags.config,
} as const;

export default defineCommand({
  meta: { name: "acp", description: "Serve editors over the Agent Client Protocol on stdin/stdout (docs/acp.md)." },
  args,
  async run(line) {
    const watcher = interrupts();
    // Before anything runs: tools must find no way to the protocol's stdout (protocol-stdout.ts).
    const stdout = claimStdout(() => watcher.interrupt("stdout-closed"));
    let code = 0;
    let agent: AcpAgent | undefined;
    try {
      const parsed = line.values;
      const home = homeDir();
      // Loaded here, so that no other command pays for the SDK and its schemas.
      const sdk: AcpSdk = await import("@agentclientprotocol/sdk");
      agent = new AcpAgent(sdk, {
        home,
        env: process.env,
        ...(parsed.config !== undefined ? { configPath: parsed.config } : {}),
        ...(parsed.agent !== undefined ? { agentId: parsed.agent } : {}),
        ...(parsed.model !== undefined ? { modelRef: parsed.model } : {}),
        ...(parsed.thinking !== undefined ? { thinking: parsed.thinking } : {}),
        autoApprove: Boolean(parsed["auto-approve"]),
        open: createConversation,
        defaultAgent: () => firstAgent(home),
      });
      const connection = agent.app().connect(sdk.ndJsonStream(stdoutStream(stdout), stdinStream(process.stdin)));
      const interrupted = new Promise<void>((resolve) => watcher.listen(() => resolve()));
      if (watcher.interrupted) code = watcher.exitCode;
      await Promise.race([connection.closed, interrupted]);
      if (watcher.interrupted) code = watcher.exitCode;
      connection.close();
    } catch (error) {
      process.stderr.write(
        `${userMessage(error)
          .split("\n")
          .map((line) => `rienda: ${line}`)
          .join("\n")}\n`,
      );
      code = watcher.interrupted ? watcher.exitCode : 1;
    }
    // Turns end as interrupted and write their end; a second interrupt hurries their afterRun hooks, a third exits at once.
    await agent?.close(watcher.finalSignal);
    await exitWhenFlushed(code);
  },
});

/** The agent of a new session when `-a` names none: the first of ~/.rienda/agents, by id. */
function firstAgent(home: string): string {
  const first = listAgents(home).agents[0];
  if (!first)
    throw new RiendaError(
      "agent",
      "no agents in ~/.rienda/agents (rienda init writes a starter agent), and rienda acp was given no -a AGENT",
    );
  return first.id;
}
