// Runs the adversarial freshness cases of issue 16 (test/runtime/freshness-cases.ts)
// against every context design (a worker per call, the node:vm prototype, the
// shipped ShadowRealm per call) and prints, per case, whether each kept calls apart.
import { createRuntime } from "../../src/runtime/index.ts";
import { realmsAvailable } from "../../src/runtime/host/realm-helper.ts";
import { runFreshnessCases } from "../../test/runtime/freshness-cases.ts";
import { Sandbox } from "../../test/runtime/support.ts";
import { createRealmRuntime } from "./realm-runtime.ts";

const box = new Sandbox();
const context = box.context();
const workers = createRuntime({ contexts: "workers" });
const vmRealms = createRealmRuntime();
// Without ShadowRealms (Deno) a "realms" runtime runs workers: that column would repeat the first, so it is left out.
const shadowRealms = realmsAvailable() ? createRuntime({ contexts: "realms" }) : undefined;
shadowRealms?.expectCalls();
await shadowRealms?.settled();
const viaWorkers = await runFreshnessCases(
  (modulePath, args) => workers.invoke({ modulePath, exportName: "execute", args: [args], context }),
  () => workers.settled(),
);
const viaVmRealms = await runFreshnessCases((modulePath, args) =>
  vmRealms.invoke({ modulePath, exportName: "execute", args: [args], context }),
);
const viaShadowRealms = shadowRealms
  ? await runFreshnessCases(
      (modulePath, args) => shadowRealms.invoke({ modulePath, exportName: "execute", args: [args], context }),
      // A call that ends its helper (an interrupt, a crash) leaves none: the runtime would run the next call in a
      // worker, so one is asked for again and every call of this column runs in a ShadowRealm.
      () => {
        shadowRealms.expectCalls();
        return shadowRealms.settled();
      },
    )
  : viaWorkers.map((w) => ({ name: w.name, ok: false, detail: "(no ShadowRealm in this runtime)" }));
await workers.close();
vmRealms.close();
await shadowRealms?.close();
box.dispose();
const verdict = (r: { ok: boolean; detail: string }, width: number) =>
  (r.ok ? "fresh" : r.detail.startsWith("(") ? r.detail : `LEAKS: ${r.detail.slice(0, 100)}`).padEnd(width);
console.log(
  `${"case".padEnd(58)} ${"worker per call".padEnd(16)} ${"vm realm per call".padEnd(18)} ShadowRealm per call`,
);
for (let i = 0; i < viaWorkers.length; i++) {
  console.log(
    `${viaWorkers[i]!.name.padEnd(58)} ${verdict(viaWorkers[i]!, 16)} ${verdict(viaVmRealms[i]!, 18)} ${verdict(viaShadowRealms[i]!, 0)}`,
  );
}
// Under Deno a worker spinning in a promise callback it left behind cannot be ended (runtime.md, "Deno"): exit instead of waiting on it.
process.exit(0);
