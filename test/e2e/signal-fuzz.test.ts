/**
 * Signals at every stage: a run with hooks at every point, a user tool, a
 * `shell` command and a slowly streamed answer, interrupted by SIGINT,
 * SIGTERM or SIGHUP at seeded moments from its first millisecond to its
 * end. Whatever the moment (but the runtime's own first milliseconds,
 * before any code of ours runs, when the signal's default action still
 * applies), the run ends 0 (it finished first) or 130, with
 * no stack trace, its --json output is whole lines ending with run_end when
 * it started one, and the session it left (if any) continues with the next
 * prompt.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { seededRandom as generator } from "../support/fuzz.ts";
import { Instance } from "../support/instance.ts";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";
import { configFor } from "../support/scenario.ts";

setDefaultTimeout(300_000);

let server: ProviderServer;
let inst: Instance;
beforeAll(async () => {
  server = await startProviderServer();
  inst = new Instance();
  inst.config(configFor(server.url));
  inst.agent(
    "coder",
    "---\ndescription: signal fuzz\nmodel: p/m\ntools: [shell, note]\nhooks: [every]\n---\nYou work.\n",
  );
  inst.tool(
    "note",
    `module.exports = { description: "Notes.", parameters: { type: "object", properties: { text: { type: "string" } } },
      execute(ctx, args) { ctx.log("noting"); ctx.sleep(20); return "noted " + args.text; } };`,
  );
  // Every point does a little work, so a signal can land inside any of them.
  const point = (name: string, ret = "undefined") => `${name}(ctx) { ctx.sleep(15); return ${ret}; }`;
  inst.hook(
    "every",
    `module.exports = { ${[
      point("beforeRun"),
      point("beforeModelRequest"),
      point("afterModelResponse"),
      point("beforeToolExecute"),
      point("afterToolExecute"),
      point("afterRun"),
    ].join(", ")} };`,
  );
});
afterAll(async () => {
  await server.close();
  inst.dispose();
});

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("signals at every stage", () => {
  test("SIGINT, SIGTERM or SIGHUP at 40 seeded moments: exit 0 or 130, whole output, a session that goes on", async () => {
    const random = generator(77);
    const failures: string[] = [];
    const outcomes = { finished: 0, interrupted: 0 };
    for (let i = 0; i < 40; i++) {
      const signal = (["SIGINT", "SIGTERM", "SIGHUP"] as const)[i % 3]!;
      // Moments spread over the whole run (about 300 ms on an idle machine).
      const delay = Math.floor(random() * 320);
      server.reset();
      server.script(
        { toolCalls: [{ id: `s${i}`, name: "shell", arguments: { command: "sleep 0.05; echo shelled" } }] },
        { toolCalls: [{ id: `n${i}`, name: "note", arguments: { text: "x" } }] },
        { text: "the final answer, streamed slowly in pieces", chunkDelayMs: 10 },
      );
      const run = inst.start(["run", "-a", "coder", "-p", "go", "--json"]);
      await wait(delay);
      run.kill(signal);
      const r = await run.done;
      const name = `#${i} ${signal} after ${delay} ms`;
      const lines = r.stdout.split("\n").filter((l) => l !== "");
      let events: Array<{ type?: string; sessionId?: string; reason?: string }> = [];
      try {
        events = lines.map((l) => JSON.parse(l) as { type?: string });
      } catch {
        failures.push(`${name}: stdout is not whole JSON lines: ${r.stdout.slice(-300)}`);
        continue;
      }
      const start = events.find((e) => e.type === "run_start");
      const end = events[events.length - 1];
      // Killed by the signal itself only in the runtime's own first milliseconds, before any code of ours ran.
      if (r.signal === signal && r.stdout === "" && r.stderr === "") continue;
      const problem =
        r.signal !== null
          ? `ended by ${r.signal} itself after it had started`
          : r.code !== 0 && r.code !== 130
            ? `exit ${r.code}`
            : /\n\s+at .+:\d+:\d+|TypeError|ReferenceError|panic/.test(r.stderr)
              ? "an internal failure on stderr"
              : start && end?.type !== "run_end"
                ? "run_start without a run_end last"
                : r.code === 130 && end && end.type === "run_end" && end.reason !== "interrupted"
                  ? `exit 130 with run_end reason ${end.reason}`
                  : undefined;
      if (problem) {
        failures.push(`${name}: ${problem}\n--- stderr ---\n${r.stderr.slice(0, 500)}`);
        continue;
      }
      if (r.code === 0) outcomes.finished++;
      else outcomes.interrupted++;
      if (!start?.sessionId) continue;
      server.reset();
      server.script({ text: "next answer" });
      const next = await inst.run(["run", "-s", start.sessionId, "-p", "and now?"]);
      // A session interrupted before its prompt was stored is removed (sessions.md, "No empty sessions").
      const removed = r.code === 130 && /unknown session/.test(next.stderr);
      if (next.code !== 0 && !removed)
        failures.push(`${name}: the session did not go on (exit ${next.code}): ${next.stderr.slice(0, 400)}`);
      else if (next.code === 0 && next.stdout !== "next answer\n")
        failures.push(`${name}: the next run answered ${JSON.stringify(next.stdout)}`);
    }
    expect(failures).toEqual([]);
    expect(outcomes.interrupted).toBeGreaterThan(10);
  });
});
