/**
 * How the Go original's plain fields read "not set": its old configuration
 * files keep loading with the same meaning.
 */

/**
 * The Go original read its settings into plain string fields, where `key: ""`
 * and a key left out are the same thing: an empty protocol, preset or
 * thinking_level is "not set", so its old files keep loading.
 */
export function unsetWhenEmpty(value: string | undefined): string | undefined {
  return value === "" ? undefined : value;
}

/** The Go original read 0 as "not set" for token counts; old files keep working. */
export function unsetWhenZero(value: number | undefined): number | undefined {
  return value === 0 ? undefined : value;
}
