/**
 * The adversarial freshness cases of issue 16 against the shipped design (a
 * fresh worker per call): called back to back, and in spares prepared ahead.
 */
import { afterAll, expect, test } from "bun:test";
import { createRuntime } from "../../src/runtime/index.ts";
import { FRESHNESS_CASES, runFreshnessCases } from "./freshness-cases.ts";
import { Sandbox } from "./support.ts";

const box = new Sandbox();
afterAll(() => box.dispose());

for (const [label, spareWorkers] of [["spawned per call", 0], ["prepared spares", 2]] as const) {
  test(`nothing one call does reaches the next (${label})`, async () => {
    const runtime = createRuntime({ spareWorkers });
    const context = box.context();
    try {
      const results = await runFreshnessCases(
        (modulePath, args) => runtime.invoke({ modulePath, exportName: "execute", args: [args], context }),
        () => runtime.settled(),
      );
      expect(results.map((r) => r.name)).toEqual(FRESHNESS_CASES.map((c) => c.name));
      expect(results.filter((r) => !r.ok)).toEqual([]);
    } finally {
      await runtime.close();
    }
  });
}
