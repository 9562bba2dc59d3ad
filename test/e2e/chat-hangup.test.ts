/** When its terminal goes away, the chat ends instead of lingering (and spinning) without one. */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { waitFor } from "../support/instance.ts";
import { scenario, type Scenario } from "../support/scenario.ts";
import { hasTmux, Terminal } from "../support/tmux.ts";

setDefaultTimeout(60_000);

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

/** Pids of running (not zombie) processes whose HOME is `home`. */
function processesWithHome(home: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, "utf8").split("\0");
      if (!environ.includes(`HOME=${home}`)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) === "Z") continue;
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("rienda")) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

test("closing the terminal ends the chat", async () => {
  if (!hasTmux()) throw new Error("this test needs tmux (apt-get install -y tmux)");
  s = await scenario();
  const term = Terminal.start(s.inst, { args: ["-a", "coder"] });
  await term.waitForPrompt();
  expect(processesWithHome(s.inst.home).length).toBeGreaterThan(0);
  term.dispose();
  await waitFor(() => processesWithHome(s!.inst.home).length === 0, 10_000, "the chat to end with its terminal");
});
