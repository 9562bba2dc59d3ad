/**
 * What the user sees in a terminal: the output of a run (plain or JSON
 * events) and the front end a tool or hook talks to (live output, notices,
 * confirmations). stdout carries only results or events; everything else
 * goes to stderr.
 * Must not run anything itself: it renders and asks, the caller decides.
 */
export { answerConfirm, createTerminalFrontEnd, formatNotice, noticeEvent, noticeLine, type TerminalFrontEndOptions, type TerminalStreams } from "./terminal-front-end.ts";
export { createRunOutput, type RunOutput } from "./run-output.ts";
