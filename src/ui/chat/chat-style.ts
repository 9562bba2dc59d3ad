/**
 * The few styles the chat uses, as plain functions so the renderer can be
 * tested without a terminal. Colours come from consola, which already turns
 * them off for NO_COLOR, TERM=dumb and output that is not a terminal.
 */
import { colors } from "consola/utils";

/** Text styles of the chat screen. */
export interface ChatStyle {
  dim(text: string): string;
  bold(text: string): string;
  /** The user prompt and other accents. */
  accent(text: string): string;
  warn(text: string): string;
  error(text: string): string;
  ok(text: string): string;
}

const identity = (text: string): string => text;

/** Every style leaves text unchanged (tests, NO_COLOR). */
export const plainStyle: ChatStyle = {
  dim: identity,
  bold: identity,
  accent: identity,
  warn: identity,
  error: identity,
  ok: identity,
};

/** Styles for a terminal; plain when `color` is false or consola finds no colour support. */
export function createChatStyle(color: boolean): ChatStyle {
  if (!color) return plainStyle;
  const paint = (name: "dim" | "bold" | "cyan" | "yellow" | "red" | "green") => (text: string) =>
    text === "" ? "" : colors[name](text);
  return {
    dim: paint("dim"),
    bold: paint("bold"),
    accent: paint("cyan"),
    warn: paint("yellow"),
    error: paint("red"),
    ok: paint("green"),
  };
}
