/** How a `ctx.notify` becomes an event of the run: the front ends and the subagent relay share it. */
import type { Prompt } from "../tools/types.ts";
import type { EngineEvent } from "./types.ts";

/** The `notice` event of a `ctx.notify` (the run's own, or a subagent's). */
export function noticeEvent(prompt: Prompt): Extract<EngineEvent, { type: "notice" }> {
  return { type: "notice", message: formatNotice(prompt.title, prompt.body), title: prompt.title, body: prompt.body };
}

/** A notice's text: `title: body`, or whichever is present. */
export function formatNotice(title: string, body: string): string {
  if (title && body) return `${title}: ${body}`;
  return title || body;
}
