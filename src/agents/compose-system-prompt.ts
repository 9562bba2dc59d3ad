/** The system prompt sent to the model (contract.md §3). */

/** What separates the agent body from the project instructions: a blank line, `---`, a blank line. */
export const INSTRUCTIONS_SEPARATOR = "\n\n---\n\n";

/**
 * The agent body, then the project instructions, each trimmed, joined by
 * INSTRUCTIONS_SEPARATOR. An empty part is left out together with the
 * separator, so the prompt never starts or ends with `---`.
 */
export function composeSystemPrompt(body: string, instructions?: string): string {
  return [body.trim(), (instructions ?? "").trim()].filter((part) => part !== "").join(INSTRUCTIONS_SEPARATOR);
}
