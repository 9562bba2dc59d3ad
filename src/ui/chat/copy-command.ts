/**
 * `/copy [N]`: the last answer, or its code block N, to the clipboard
 * through the screen (the full-screen chat writes OSC 52, which the
 * terminal, tmux included, turns into a clipboard write). Without N and
 * with code blocks in the answer, a list offers the answer and each block.
 */
import { recap } from "./recap.ts";
import type { CommandContext } from "./command-context.ts";
import type { Choice } from "./prompts.ts";
import { truncateToWidth } from "./wrap-text.ts";
import { terminalLine } from "../terminal-text.ts";

/** What `/copy` uses of the command context. */
type CopyContext = Pick<CommandContext, "backend" | "width" | "pick" | "copy">;

/** The code blocks of a markdown text, without their fences. */
export function codeBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  for (const match of markdown.matchAll(/^(`{3,}|~{3,})[^\n]*\n([\s\S]*?)^\1\s*$/gm))
    blocks.push(match[2]!.replace(/\n$/, ""));
  return blocks;
}

/** Runs `/copy`; returns the line to show (what was copied, or why nothing was). */
export async function copyCommand(argument: string, ctx: CopyContext): Promise<string | undefined> {
  if (!ctx.copy) return "the line chat leaves copying to the terminal: select the text with the mouse";
  const answer = recap(ctx.backend.history(), 1000)
    .items.filter((item) => item.kind === "assistant")
    .at(-1)?.text;
  if (answer === undefined) return "no answer to copy yet";
  const blocks = codeBlocks(answer);
  let chosen = argument;
  if (chosen === "" && blocks.length > 0) {
    const room = ctx.width() - 6;
    const choices: Choice[] = [
      { value: "answer", label: truncateToWidth(`the whole answer: ${terminalLine(answer)}`, room) },
      ...blocks.map((block, i) => ({
        value: String(i + 1),
        label: truncateToWidth(`code block ${i + 1}: ${terminalLine(block)}`, room),
      })),
    ];
    const picked = await ctx.pick("Copy what?", choices);
    if (picked === undefined) return undefined;
    chosen = picked;
  }
  if (chosen !== "" && chosen !== "answer" && !/^[1-9]\d*$/.test(chosen))
    return "usage: /copy [N] (N: a code block of the last answer)";
  const index = /^\d+$/.test(chosen) ? Number(chosen) : 0;
  if (index > blocks.length)
    return `the last answer has ${blocks.length === 0 ? "no code blocks" : `${blocks.length} code block${blocks.length === 1 ? "" : "s"}`}`;
  const text = index === 0 ? answer : blocks[index - 1]!;
  const refused = ctx.copy(text);
  if (refused) return `nothing copied: ${refused}; select the text with the mouse instead (code blocks have no gutter)`;
  const what = index === 0 ? "the last answer" : `code block ${index}`;
  const lines = text.split("\n").length;
  return `copied ${what} (${lines} line${lines === 1 ? "" : "s"}) through the terminal (OSC 52); a terminal that does not allow it copies nothing: select with the mouse instead (in tmux, set-clipboard on)`;
}
