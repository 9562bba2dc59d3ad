/**
 * The full-screen chat (issue 28): a transcript, an editor and a status
 * line drawn by pi-tui over the line chat's backend and commands. Loaded
 * by `rienda` (cli/chat/command.ts) with a dynamic import, only for a terminal
 * that can take it, so no other command loads the library.
 */
export { createTuiScreen } from "./tui-screen.ts";
export { listWorkspace } from "./file-mentions.ts";
export { highlightCode } from "./syntax-colour.ts";
