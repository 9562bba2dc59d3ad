// Runs the adversarial freshness cases of issue 16 (test/runtime/freshness-cases.ts)
// against both context designs and prints, per case, whether each kept calls apart.
import { createRuntime } from "../../src/runtime/index.ts";
import { runFreshnessCases } from "../../test/runtime/freshness-cases.ts";
import { Sandbox } from "../../test/runtime/support.ts";
import { createRealmRuntime } from "./realm-runtime.ts";

const box = new Sandbox();
const context = box.context();
const workers = createRuntime({ spareWorkers: 1 });
const realms = createRealmRuntime();
const viaWorkers = await runFreshnessCases((modulePath, args) => workers.invoke({ modulePath, exportName: "execute", args: [args], context }), () => workers.settled());
const viaRealms = await runFreshnessCases((modulePath, args) => realms.invoke({ modulePath, exportName: "execute", args: [args], context }));
await workers.close();
realms.close();
box.dispose();
console.log(`${"case".padEnd(58)} ${"worker per call".padEnd(16)} realm per call`);
for (let i = 0; i < viaWorkers.length; i++) {
  const w = viaWorkers[i]!;
  const r = viaRealms[i]!;
  console.log(`${w.name.padEnd(58)} ${(w.ok ? "fresh" : "LEAKS").padEnd(16)} ${r.ok ? "fresh" : `LEAKS: ${r.detail.slice(0, 140)}`}`);
}
