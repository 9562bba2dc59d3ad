// What a ShadowRealm per call would cost and give, in Bun (which has the
// global without a flag): `bun bench/realm/shadow-realm.ts`.
// Prints the p50 of creating a realm, compiling a small module in it and
// calling it; the RSS growth from the 1,000th to the 11,000th realm after a
// full collection; and what the realm can reach (its global has no `require`,
// and only primitives and callables cross its boundary).
import { collectGarbage } from "../../src/platform.ts";

type RealmLike = { evaluate(source: string): unknown };
const Realm = (globalThis as unknown as { ShadowRealm?: new () => RealmLike }).ShadowRealm;
if (!Realm) {
  console.log("this runtime has no ShadowRealm");
  process.exit(0);
}

const CALLS = 11_000;
const MODULE = `(input) => { Object.prototype.leaked = 1; return JSON.stringify({ words: input.split(" ").length }); }`;
const times: number[] = [];
let rssAfterWarmUp = 0;
for (let i = 0; i < CALLS; i++) {
  const start = performance.now();
  const realm = new Realm();
  const call = realm.evaluate(MODULE) as (input: string) => string;
  call("one two three");
  times.push(performance.now() - start);
  if (i === 999) {
    collectGarbage();
    rssAfterWarmUp = process.memoryUsage().rss;
  }
}
collectGarbage();
const growth = process.memoryUsage().rss - rssAfterWarmUp;
times.sort((a, b) => a - b);

const probe = new Realm();
const reach = (expression: string) => {
  try {
    return String(probe.evaluate(expression));
  } catch (error) {
    return `throws ${(error as Error).name}`;
  }
};
const passObject = () => {
  try {
    (probe.evaluate("(value) => typeof value") as (value: unknown) => string)({ a: 1 });
    return "crosses";
  } catch (error) {
    return `refused (${(error as Error).name})`;
  }
};

console.log(`create, compile and call   p50 ${times[times.length >> 1]!.toFixed(3)} ms  (n=${CALLS})`);
console.log(`RSS growth, realm 1,000 to ${CALLS.toLocaleString("en")}   ${(growth / 1e6).toFixed(1)} MB`);
console.log(`a patch of Object.prototype seen outside: ${String(({} as Record<string, unknown>).leaked)}`);
console.log(
  `in the realm: typeof require ${reach("typeof require")}, typeof process ${reach("typeof process")}, typeof Atomics ${reach("typeof Atomics")}`,
);
console.log(`an object handed to a realm function: ${passObject()}`);
