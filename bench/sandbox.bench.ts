// Issue 43: what the sandbox adds to one `shell` command. `echo hi` run by the shell tool's process runner
// (runProcess: sh -c in its own process group), unsandboxed and inside bubblewrap (workspace-write, network off,
// the default hidden paths), interleaved run by run so that load on the shared machine hits both alike.
import { mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { runProcess } from "../src/runtime/index.ts";
import { openSandbox, resolveSandboxPolicy } from "../src/sandbox/index.ts";
import { report } from "./support/report.ts";

const workspace = mkdtempSync(join(tmpdir(), "rienda-bench-sandbox-"));
const modes = ["workspace-write", "read-only"] as const;
const sandboxes = await Promise.all(
  modes.map((mode) => openSandbox(resolveSandboxPolicy([{ mode }], { workspace, home: homedir() })!, "bench")),
);

async function once(argv?: string[], env?: Record<string, string>): Promise<number> {
  const t = performance.now();
  const result = await runProcess({
    command: "echo hi",
    cwd: workspace,
    ...(argv ? { argv } : {}),
    ...(env ? { env } : {}),
  });
  const ms = performance.now() - t;
  if (result.stdout !== "hi\n") throw new Error(`unexpected output: ${JSON.stringify(result)}`);
  return ms;
}

const plain: number[] = [];
const boxed: number[][] = modes.map(() => []);
for (let i = 0; i < 10; i++) await once();
for (let i = 0; i < 200; i++) {
  plain.push(await once());
  for (const [m, sandbox] of sandboxes.entries()) {
    const wrapped = sandbox.wrap("echo hi", workspace);
    boxed[m]!.push(await once(wrapped.argv, wrapped.env));
  }
}
report("echo hi, unsandboxed (sh -c)", plain, "ms");
for (const [m, mode] of modes.entries()) report(`echo hi, bubblewrap ${mode}`, boxed[m]!, "ms");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [m, mode] of modes.entries())
  console.log(`added by the sandbox (${mode}), median: ${(median(boxed[m]!) - median(plain)).toFixed(2)} ms`);
rmSync(workspace, { recursive: true, force: true });
