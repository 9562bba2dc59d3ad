/**
 * `rienda rpc [-a AGENT] [-m MODEL] [-s ID | -c]`: an agent driven by a
 * program over stdin/stdout, one JSON object per line (docs/rpc.md). The
 * first line written is `ready` (or `fatal` when the agent cannot be set
 * up, exit 1). The conversation is the chat's: the same backend, the same
 * session rules (created with the first prompt, the lock held while open).
 * The end of stdin ends a run going on as an interrupt would and exits 0;
 * SIGINT/SIGTERM do the same and exit 130.
 */
import { conversationStart } from "../shared/conversation-start.ts";
import { defineCommand } from "../shared/command.ts";
import { RiendaError, userMessage } from "../../errors.ts";
import { jsonWithControlsEscaped } from "../../ui/index.ts";
import { VERSION } from "../../version.ts";
import { createConversation } from "../../conversation/index.ts";
import { exitWhenFlushed } from "../shared/exit.ts";
import { interrupts } from "../shared/interrupts.ts";
import { RPC_VERSION } from "./rpc-protocol.ts";
import { readCappedLines } from "./rpc-lines.ts";
import { RpcServer } from "./rpc-server.ts";
import { runFlags } from "../shared/run-flags.ts";
import { claimStdout } from "../shared/protocol-stdout.ts";
import { latestSessionId } from "../../compose/index.ts";

const args = {
  agent: { type: "string", alias: "a", description: "Agent id (required unless -s/-c continues a session)" },
  continue: { type: "boolean", alias: "c", description: "Continue this workspace's latest session" },
  ...runFlags,
} as const;

export default defineCommand({
  meta: {
    name: "rpc",
    description: "Drive an agent over stdin/stdout, one JSON command or event per line (docs/rpc.md).",
  },
  args,
  reportsUsageErrors: true,
  async run(line) {
    const watcher = interrupts();
    // Before anything runs: tools must find no way to the protocol's stdout (protocol-stdout.ts).
    const stdout = claimStdout(() => watcher.interrupt("stdout-closed"));
    const write = (line: string) => stdout.write(line);
    let code = 0;
    let close: (() => void) | undefined;
    try {
      if (line.problem) throw line.problem;
      const parsed = line.values;
      if (parsed.continue && parsed.session !== undefined)
        throw new RiendaError("usage", "rpc: use -c or -s ID, not both");
      const start = conversationStart(parsed);
      const sessionId = parsed.session ?? (parsed.continue ? latestSessionId(start.home, start.workdir) : undefined);
      if (parsed.agent === undefined && sessionId === undefined)
        throw new RiendaError("usage", "rpc: -a AGENT is required unless -s ID or -c continues a session");
      if (sessionId !== undefined) start.sessionId = sessionId;
      const rpc = new RpcServer({ write, stderr: process.stderr }, { autoApprove: Boolean(parsed["auto-approve"]) });
      const backend = await createConversation(start, rpc.dialogs);
      close = () => backend.close();
      rpc.ready(backend, VERSION);
      const stopReading = readCappedLines(process.stdin, {
        line: (line) => rpc.handle(line),
        tooLong: (max) => rpc.refuseLongLine(max),
        end: () => void rpc.end(),
      });
      const stop = watcher.listen(() => {
        code = watcher.exitCode;
        void rpc.end();
      });
      await rpc.ended;
      stop();
      stopReading();
    } catch (error) {
      write(
        `${jsonWithControlsEscaped(JSON.stringify({ type: "fatal", rpc_version: RPC_VERSION, message: userMessage(error) }))}\n`,
      );
      process.stderr.write(
        `${userMessage(error)
          .split("\n")
          .map((line) => `rienda: ${line}`)
          .join("\n")}\n`,
      );
      code = watcher.interrupted ? watcher.exitCode : 1;
    } finally {
      close?.();
    }
    await exitWhenFlushed(code);
  },
});
