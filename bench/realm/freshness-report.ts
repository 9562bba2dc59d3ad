// Runs the adversarial freshness cases of issue 16 (test/runtime/freshness-cases.ts)
// against every context design (workers, vm realms, ShadowRealms) and prints, per case, whether each kept calls apart.
import { createRuntime } from "../../src/runtime/index.ts";
import { runFreshnessCases } from "../../test/runtime/freshness-cases.ts";
import { Sandbox } from "../../test/runtime/support.ts";
import { createRealmRuntime } from "./realm-runtime.ts";

const box = new Sandbox();
const context = box.context();
const workers = createRuntime({ spareWorkers: 1 });
const realms = createRealmRuntime("vm");
// Deno has no ShadowRealm: that column is left out there.
const hasShadowRealm = typeof (globalThis as { ShadowRealm?: unknown }).ShadowRealm === "function";
const shadowRealms = hasShadowRealm ? createRealmRuntime("shadow") : undefined;
const viaWorkers = await runFreshnessCases((modulePath, args) => workers.invoke({ modulePath, exportName: "execute", args: [args], context }), () => workers.settled());
const viaRealms = await runFreshnessCases((modulePath, args) => realms.invoke({ modulePath, exportName: "execute", args: [args], context }));
const viaShadowRealms = shadowRealms
  ? await runFreshnessCases((modulePath, args) => shadowRealms.invoke({ modulePath, exportName: "execute", args: [args], context }))
  : viaWorkers.map((w) => ({ name: w.name, ok: false, detail: "(no ShadowRealm in this runtime)" }));
await workers.close();
realms.close();
shadowRealms?.close();
box.dispose();
const verdict = (r: { ok: boolean; detail: string }, width: number) =>
  (r.ok ? "fresh" : r.detail.startsWith("(") ? r.detail : `LEAKS: ${r.detail.slice(0, 100)}`).padEnd(width);
console.log(`${"case".padEnd(58)} ${"worker per call".padEnd(16)} ${"vm realm per call".padEnd(18)} ShadowRealm per call`);
for (let i = 0; i < viaWorkers.length; i++) {
  console.log(`${viaWorkers[i]!.name.padEnd(58)} ${verdict(viaWorkers[i]!, 16)} ${verdict(viaRealms[i]!, 18)} ${verdict(viaShadowRealms[i]!, 0)}`);
}
// Under Deno a worker spinning in a promise callback it left behind cannot be ended (runtime.md, "Deno"): exit instead of waiting on it.
process.exit(0);
