/** The list of files `rienda init` writes, with their modes. */
import { STARTER_AGENT, STARTER_CONFIG, STARTER_REPLAY, WORD_COUNT_TOOL } from "./templates.ts";

/** One file `rienda init` writes, relative to ~/.rienda. */
export interface StarterFile {
  path: string;
  content: string;
  /** Permission bits on creation (the umask may only remove some). */
  mode: number;
}

/**
 * What `rienda init` writes, in the order it reports them. config.yaml may
 * come to hold API keys, so only its owner may read it.
 */
export const STARTER_FILES: readonly StarterFile[] = [
  { path: "config.yaml", content: STARTER_CONFIG, mode: 0o600 },
  { path: "agents/starter.md", content: STARTER_AGENT, mode: 0o644 },
  { path: "replay/starter.yaml", content: STARTER_REPLAY, mode: 0o644 },
  { path: "tools/word-count/index.js", content: WORD_COUNT_TOOL, mode: 0o644 },
];

/** The id of the agent init writes, for the hints it prints. */
export const STARTER_AGENT_ID = "starter";
