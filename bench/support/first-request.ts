/** Timing a whole `rienda` process up to the scripted provider's first request. */
import { spawn } from "node:child_process";
import type { ProviderServer } from "../../test/support/provider-server.ts";

/** Where and how the binary runs. */
export interface RunSpawn {
  binary: string;
  env: Record<string, string>;
  cwd: string;
}

/**
 * ms from spawning `binary args` to the first request `server` receives
 * (scripted to answer "ok"); resolves once the process has ended, so runs
 * measured one after another do not overlap.
 */
export async function msToFirstRequest(
  server: ProviderServer,
  run: RunSpawn,
  args: string[],
  timeoutMs = 10_000,
): Promise<number> {
  server.reset();
  server.script({ text: "ok" });
  const start = performance.now();
  const child = spawn(run.binary, args, { env: run.env, cwd: run.cwd, stdio: "ignore" });
  await server.waitForRequests(1, timeoutMs);
  const elapsed = performance.now() - start;
  await new Promise((r) => child.on("close", r));
  return elapsed;
}
