/** Formatting of key paths in messages: `providers.local.models.llama.temperature`. */

/** A position in the document: mapping keys and sequence indexes. */
export type KeyPath = readonly (string | number)[];

// Keys that would make a dotted path ambiguous or unreadable are quoted.
const PLAIN_KEY = /^[A-Za-z0-9_\-/:@+]+$/;

/** `providers.local.models."llama3.1:8b".id`, `headers[0]`: how a user finds the key in the file. */
export function formatKeyPath(path: KeyPath): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += (out === "" ? "" : ".") + (PLAIN_KEY.test(part) ? part : JSON.stringify(part));
  }
  return out;
}
