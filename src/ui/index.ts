/**
 * What the user sees in a terminal: the output of a run (plain or JSON
 * events) and the front end a tool or hook talks to (live output, notices,
 * confirmations). stdout carries only results or events; everything else
 * goes to stderr. Text from outside Rienda reaches a person with its control
 * characters shown, never acted on (terminal-text.ts).
 * Must not run anything itself: it renders and asks, the caller decides.
 */
export { formatNotice, noticeEvent } from "../engine/index.ts";
export {
  answerConfirm,
  createTerminalFrontEnd,
  noticeLine,
  type TerminalFrontEndOptions,
  type TerminalStreams,
} from "./terminal-front-end.ts";
export { createRunOutput, type RunEnd, type RunOutput, type RunOutputOptions } from "./run-output.ts";
export {
  cleanedSink,
  jsonWithControlsEscaped,
  terminalLine,
  terminalSafe,
  type TerminalSink,
} from "./terminal-text.ts";
export type { TextSink } from "./stream-writer.ts";
