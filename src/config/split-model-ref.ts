/** Splitting `provider/alias` references (contract.md §2). */

/** The two halves of a model reference. */
export interface ModelRef {
  provider: string;
  alias: string;
}

/**
 * Splits on the FIRST "/" (the alias may hold more), trimming each half as
 * the Go original did; `undefined` unless both halves are non-empty.
 */
export function splitModelRef(ref: string): ModelRef | undefined {
  const slash = ref.indexOf("/");
  if (slash < 0) return undefined;
  const provider = ref.slice(0, slash).trim();
  const alias = ref.slice(slash + 1).trim();
  return provider && alias ? { provider, alias } : undefined;
}
