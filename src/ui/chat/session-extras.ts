/**
 * `/copy`, `/compact` and `/rename`: what a conversation of a working day
 * needs besides switching (docs/chat.md "Commands"). Each reports in a line.
 */
import type { CommandContext } from "./command-context.ts";
import { copyCommand } from "./copy-command.ts";
import { terminalLine } from "../terminal-text.ts";

/** What these commands use of the command context. */
type ExtrasContext = Pick<
  CommandContext,
  "backend" | "renderer" | "style" | "width" | "pick" | "interruptible" | "copy"
>;

/** Runs `name` when it is one of these commands; whether it was. */
export async function sessionExtras(name: string, argument: string, ctx: ExtrasContext): Promise<boolean> {
  const { backend, renderer, style } = ctx;
  if (name === "copy") {
    const said = await copyCommand(argument, ctx);
    if (said) renderer.line(said.startsWith("copied") ? style.ok(said) : style.dim(said));
  } else if (name === "compact") {
    const done = await ctx.interruptible((signal) =>
      backend.compact({ emit: (event) => event.type === "notice" && renderer.notice(event.message), signal }),
    );
    if (!done) renderer.line(style.dim("nothing was compacted (no session yet, or too little to condense)"));
  } else if (name === "rename") {
    if (argument === "") renderer.line(style.warn("usage: /rename TITLE"));
    else {
      backend.rename(argument);
      renderer.line(style.ok(`session ${backend.status().sessionId} is now "${terminalLine(argument)}"`));
    }
  } else return false;
  return true;
}
