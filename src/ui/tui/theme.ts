/**
 * The colours of the full-screen interface, built on the chat's styles
 * (consola's colours, so NO_COLOR and TERM=dumb turn them all off). Only
 * the basic foreground colours, dim and bold are used, never a background:
 * they read on a light terminal as well as on a dark one.
 */
import type { EditorTheme, MarkdownTheme, SelectListTheme } from "@mariozechner/pi-tui";
import { createChatStyle, type ChatStyle } from "../chat/index.ts";
import { colors } from "consola/utils";
import { highlightCode } from "./syntax-colour.ts";

/** Everything the components paint with. */
export interface TuiTheme {
  style: ChatStyle;
  markdown: MarkdownTheme;
  editor: EditorTheme;
  select: SelectListTheme;
  /** Whether colours are on at all (NO_COLOR and TERM=dumb turn them off). */
  color: boolean;
}

/** The theme for this terminal; plain when `color` is false or colours are off. */
export function createTuiTheme(color: boolean): TuiTheme {
  const style = createChatStyle(color);
  const on = color && colors.cyan("x") !== "x";
  const paint = (name: "italic" | "underline" | "strikethrough" | "magenta" | "blue") => (text: string) =>
    on && text !== "" ? colors[name](text) : text;
  const select: SelectListTheme = {
    selectedPrefix: style.accent,
    selectedText: style.accent,
    description: style.dim,
    scrollInfo: style.dim,
    noMatch: style.dim,
  };
  const markdown: MarkdownTheme = {
    heading: (t) => style.bold(style.accent(t)),
    link: paint("underline"),
    linkUrl: style.dim,
    code: style.accent,
    codeBlock: (t) => t,
    // The fence lines as a frame's corners: `┌── sh` above the code, `└──` below it.
    codeBlockBorder: (t) =>
      style.dim(t.startsWith("```") && t.length > 3 ? `┌── ${t.slice(3)}` : t === "```" ? "└──" : t),
    quote: paint("italic"),
    quoteBorder: style.dim,
    hr: style.dim,
    listBullet: style.accent,
    bold: style.bold,
    italic: paint("italic"),
    strikethrough: paint("strikethrough"),
    underline: paint("underline"),
    highlightCode: (code, lang) =>
      highlightCode(
        code,
        lang,
        on ? { keyword: paint("magenta"), string: style.ok, comment: style.dim, number: style.warn } : undefined,
      ),
    // No gutter: code copied from the terminal is the code itself.
    codeBlockIndent: "",
  };
  return { style, markdown, editor: { borderColor: style.dim, selectList: select }, select, color: on };
}
