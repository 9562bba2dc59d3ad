/**
 * The adversarial freshness cases of issue 16 against both designs: a fresh
 * worker per call, and a new ShadowRealm per call in the realm helper.
 */
import { afterAll, expect, test } from "bun:test";
import { createRuntime } from "../../src/runtime/index.ts";
import { FRESHNESS_CASES, runFreshnessCases } from "./freshness-cases.ts";
import { Sandbox } from "./support.ts";

const box = new Sandbox();
afterAll(() => box.dispose());

for (const [label, contexts] of [
  ["a worker per call", "workers"],
  ["ShadowRealms", "realms"],
] as const) {
  test(`nothing one call does reaches the next (${label})`, async () => {
    const runtime = createRuntime({ contexts });
    // The helper boots when calls are expected.
    if (contexts === "realms") runtime.expectCalls();
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
