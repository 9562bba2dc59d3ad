/** The flags of a bare `rienda` (also shown by `rienda --help`), kept apart so the dispatcher reads them without loading the chat. */
import { runFlags, runSessionFlags } from "../shared/run-flags.ts";

export const chatArgs = {
  agent: { type: "string", alias: "a", description: "Agent id (without it, pick one from a list)" },
  continue: { type: "boolean", alias: "c", description: "Continue this workspace's latest session" },
  fork: runSessionFlags.fork,
  at: runSessionFlags.at,
  plain: { type: "boolean", description: "The line chat instead of the full-screen one (also with TERM=dumb)" },
  ...runFlags,
} as const;
