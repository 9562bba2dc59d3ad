/** When its terminal goes away, the chat ends instead of lingering (and spinning) without one. */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { waitFor } from "../support/instance.ts";
import { processesWithHome } from "../support/processes.ts";
import { scenario, type Scenario } from "../support/scenario.ts";
import { hasTmux, Terminal } from "../support/tmux.ts";

setDefaultTimeout(60_000);

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

test("closing the terminal ends the chat", async () => {
  if (!hasTmux()) throw new Error("this test needs tmux (apt-get install -y tmux)");
  s = await scenario();
  const term = Terminal.start(s.inst, { args: ["-a", "coder"] });
  await term.waitForPrompt();
  expect(processesWithHome(s.inst.home).length).toBeGreaterThan(0);
  term.dispose();
  await waitFor(() => processesWithHome(s!.inst.home).length === 0, 10_000, "the chat to end with its terminal");
});
