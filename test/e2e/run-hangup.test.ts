/** A `rienda run` whose terminal goes away ends its tools' processes and leaves the session continuable. */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "../support/instance.ts";
import { scenario, type Scenario } from "../support/scenario.ts";
import { sessionFiles } from "../support/session-reader.ts";
import { hasTmux, Terminal } from "../support/tmux.ts";
import { processRunning } from "../support/processes.ts";

setDefaultTimeout(60_000);

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

test("closing the terminal of a run kills the running command and the session continues", async () => {
  if (!hasTmux()) throw new Error("this test needs tmux (apt-get install -y tmux)");
  s = await scenario({ agentFrontmatter: "tools: [shell]" });
  s.server.script({
    toolCalls: [{ id: "c1", name: "shell", arguments: { command: "sleep 60 & echo $! > child.pid; wait" } }],
  });
  const term = Terminal.start(s.inst, { args: ["run", "-a", "coder", "-p", "go"] });
  const pidFile = join(s.inst.workspace, "child.pid");
  await waitFor(
    () => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "",
    15_000,
    "the command to start",
  );
  const child = Number(readFileSync(pidFile, "utf8").trim());
  expect(processRunning(child)).toBe(true);
  term.dispose();
  await waitFor(() => !processRunning(child), 10_000, "the command to be killed");
  const [file] = sessionFiles(s.inst.home);
  const id = file!.split("/").pop()!.replace(".jsonl", "");
  s.server.script({ text: "continued" });
  const r = await s.inst.run(["run", "-s", id, "-p", "again"]);
  expect(r.stdout).toBe("continued\n");
});
