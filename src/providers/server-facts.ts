/** What a local server says about one of its models (server-context-window.ts asks, server-facts-cache.ts keeps). */
import type { ServerInput } from "./server-input.ts";

/** A window and where it came from, as a message names it. */
export interface ServerContextWindow {
  tokens: number;
  source: string;
}

/** What a local server told about one model. */
export interface ServerFacts {
  window?: ServerContextWindow;
  input?: ServerInput;
}
