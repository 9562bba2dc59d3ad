/**
 * `rienda auth`'s parts (the command is ../auth.ts): the key rules, reading
 * a key from stdin, the screen, and the provider rows that `rienda doctor`
 * shows too.
 *
 * Invariants: a key is never printed, drawn, logged or put in a message;
 * it is written only through credentials/ (atomic, 0600, unknown fields
 * kept); nothing is stored before the key passed the checks of key-text.ts.
 */
export { listKeys, removeKey, setKey, type KeyStreams } from "./key-commands.ts";
export { openKeyContext, type KeyCommandContext, type KeyContextRequest } from "./key-context.ts";
export { ModuleLines } from "./module-lines.ts";
export { rowJson } from "./format-list.ts";
export { keyWords, modelCount, pendingRow, providerRow, rowMark, type ProviderRow } from "./provider-rows.ts";
export { storedKeys } from "./stored-keys.ts";
