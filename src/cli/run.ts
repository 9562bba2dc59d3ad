/**
 * `rienda run -a AGENT -p PROMPT`: one non-interactive run, the scripting
 * entry point (contract.md §4). Exit 0 on end_turn, 1 on any failure, 130
 * when interrupted; stdout carries only the answer (or only JSON events).
 */
import { defineCommand } from "citty";
import { runAgent, type RunOutcome } from "../engine/index.ts";
import { userMessage } from "../errors.ts";
import { createModelClient } from "../providers/index.ts";
import { answerConfirm, createRunOutput } from "../ui/index.ts";
import { watchInterrupts } from "./interrupts.ts";
import { readPrompt } from "./read-prompt.ts";
import { resolveWorkdir } from "./resolve-workdir.ts";
import { runFlags } from "./run-flags.ts";
import { prepareRun, type PreparedRun } from "./setup.ts";
import { homeDir } from "./home-dir.ts";
import { assertKnownFlags } from "./strict-args.ts";
import { createCompactor } from "./compactor.ts";
import { exitWhenFlushed } from "./exit.ts";

const args = {
  agent: { type: "string", alias: "a", description: "Agent id (a file of ~/.rienda/agents)" },
  prompt: { type: "string", alias: "p", description: "The prompt; - reads it from stdin" },
  ...runFlags,
  json: { type: "boolean", description: "Print one JSON event per line on stdout" },
} as const;

/** Exit codes of `rienda run`. */
const EXIT = { end_turn: 0, error: 1, interrupted: 130 } as const;

export default defineCommand({
  meta: { name: "run", description: "Run an agent once, non-interactively." },
  args,
  async run({ rawArgs, args: parsed }) {
    const output = createRunOutput(Boolean(parsed.json), process.stdout, process.stderr);
    const interrupts = watchInterrupts(() => exitWhenFlushed(EXIT.interrupted));
    let prepared: PreparedRun | undefined;
    let code: number;
    try {
      assertKnownFlags(rawArgs, args, "rienda run");
      const workdir = resolveWorkdir(parsed.workdir);
      const prompt = await readPrompt(parsed.prompt);
      const autoApprove = Boolean(parsed["auto-approve"]);
      prepared = await prepareRun(
        {
          home: homeDir(),
          env: process.env,
          workdir,
          ...(parsed.config !== undefined ? { configPath: parsed.config } : {}),
          ...(parsed.agent !== undefined ? { agentId: parsed.agent } : {}),
          ...(parsed.session !== undefined ? { sessionId: parsed.session } : {}),
          ...(parsed.model !== undefined ? { modelRef: parsed.model } : {}),
        },
        {
          confirm: (prompt) => answerConfirm(prompt, { autoApprove, signal: interrupts.signal }),
          notify: (notice) => output.notify(notice.title, notice.body),
        },
      );
      if (interrupts.interrupted) throw interruptedBeforeStart();
      output.start({ sessionId: prepared.session.id, agent: prepared.agent.id, model: prepared.model.ref, workdir });
      for (const notice of prepared.notices) output.event({ type: "notice", message: notice });
      const modelPort = createModelClient();
      const compactor = createCompactor({
        session: prepared.session,
        config: prepared.config,
        model: prepared.model,
        modelPort,
      });
      const outcome: RunOutcome = await runAgent({
        prompt,
        system: prepared.system,
        model: prepared.model,
        agentId: prepared.agent.id,
        modelPort,
        ...(compactor ? { compactor } : {}),
        tools: prepared.tools,
        hooks: prepared.hooks,
        session: prepared.session,
        emit: (event) => output.event(event),
        signal: interrupts.signal,
        finalSignal: interrupts.finalSignal,
      });
      output.end(outcome.reason, outcome.usage, outcome.message);
      code = EXIT[outcome.reason];
    } catch (error) {
      const interrupted = interrupts.interrupted;
      output.end(interrupted ? "interrupted" : "error", null, interrupted ? undefined : userMessage(error));
      code = interrupted ? EXIT.interrupted : EXIT.error;
    } finally {
      prepared?.close();
      interrupts.dispose();
    }
    await exitWhenFlushed(code);
  },
});

function interruptedBeforeStart(): Error {
  return new Error("the run was interrupted");
}
