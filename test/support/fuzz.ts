/**
 * What the generated-input tests (test/e2e/*-fuzz.test.ts) share: a seeded
 * generator, so every run makes the same cases and a failure can be
 * replayed, and the signs of an internal failure in what a person reads.
 */

/** mulberry32: a small seeded generator of numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Why `stderr` shows an internal failure rather than a message written for
 * the user, or undefined. An error a user's own module throws is theirs to
 * see: a line naming its `index.js` may carry an error name.
 */
export function internalFailure(stderr: string): string | undefined {
  if (/\n\s+at .+(:\d+:\d+|\(native\))/.test(stderr)) return "a stack trace";
  const ours = stderr.split("\n").filter((line) => !line.includes("index.js"));
  if (ours.some((line) => /\b(TypeError|ReferenceError|RangeError|InternalError)\b/.test(line)))
    return "an internal error name";
  // NaN named as the value it is (YAML's .nan) is fine; one that leaked into a sentence is not.
  if (/\[object Object\]|\bundefined\b(?! (is|was) not)|(?<!\()\bNaN\b/.test(stderr)) return "an unrendered value";
  if (/panic|segmentation fault|Bun has crashed/i.test(stderr)) return "a crash of the runtime";
  return undefined;
}
