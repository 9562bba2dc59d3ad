/**
 * `rienda auth`'s parts (the command is command.ts): the key rules, reading
 * a key from stdin, the screen. The provider rows it shares with
 * `rienda doctor` are in ../shared/provider-rows.ts.
 *
 * Invariants: a key is never printed, drawn, logged or put in a message;
 * it is written only through credentials/ (atomic, 0600, unknown fields
 * kept); nothing is stored before the key passed the checks of key-text.ts.
 */
export { listKeys, removeKey, setKey, type KeyStreams } from "./key-commands.ts";
export { openKeyContext, type KeyCommandContext, type KeyContextRequest } from "./key-context.ts";
export { ModuleLines } from "./module-lines.ts";
