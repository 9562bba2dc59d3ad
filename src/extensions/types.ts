/** The types discovery reports: extension kinds and their diagnostics. */
import type { HookPoint } from "../engine/index.ts";
import type { Tool, ToolCallContext } from "../tools/types.ts";

/** Which kind of extension a diagnostic is about. */
export type ExtensionKind = "tool" | "hook";

/** A problem with one extension directory; the extension is skipped, the others still load. */
export interface ExtensionDiagnostic {
  kind: ExtensionKind;
  name: string;
  /** The index.js at fault (or the directory, for a bad name). */
  file: string;
  problem: string;
  /** The line shown to users: `tool "<name>": <problem>`. */
  message: string;
  /**
   * The extension loaded and works, but something about it deserves a look
   * (it replaces a built-in; a function of it seems to count on promises).
   * Without it, the extension was skipped.
   */
  warning?: true;
  /**
   * With `warning`: a function of the extension is `async`, so every call of
   * it fails (an error result, an ignored hook answer). Runs go on as the
   * spec pages want; doctor counts it as a problem.
   */
  failsEveryCall?: true;
}

/** The tools a process can offer. */
export interface ToolCatalog {
  /** Built-ins merged with the user tools that were loaded (a user tool replaces a built-in), sorted by name. */
  tools: Tool[];
  /** Every name that could be asked for: built-ins and user tool directories, sorted. */
  available: string[];
  diagnostics: ExtensionDiagnostic[];
}

/** The six points of hooks.md. */
export type HookPointName = HookPoint;

/**
 * What one hook call came back with, before the engine applies any meaning
 * to it: a returned value (`type` as the runtime described it), a failure
 * (threw, failed to load, returned a Promise), or an interruption.
 */
export type HookCallResult =
  | { kind: "returned"; value: unknown; type: string }
  | { kind: "failed"; message: string }
  | { kind: "interrupted" };

/** A loaded hook: a module of handlers for some points. */
export interface Hook {
  name: string;
  /** Absolute path of its index.js. */
  source: string;
  /** The points it handles, in hooks.md order. */
  points: readonly HookPointName[];
  /** Calls `handler(ctx, ...args)` in a fresh context. Never rejects. */
  call(point: HookPointName, args: unknown[], context: ToolCallContext): Promise<HookCallResult>;
}

/** The hooks a process can run. */
export interface HookCatalog {
  hooks: Hook[];
  available: string[];
  diagnostics: ExtensionDiagnostic[];
}
