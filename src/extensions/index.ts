/**
 * User extensions: finds ~/.rienda/tools/* and ~/.rienda/hooks/* (never the
 * workspace), validates what each module exports, reports problems as
 * `tool "<name>": <problem>` diagnostics, and adapts the good ones: a tool
 * module becomes a `Tool`, a hook module something that calls one point,
 * and an agent's loaded tools and hooks the engine's ToolPort and HookPort.
 *
 * Invariants: one broken extension never hides or breaks another; only the
 * modules asked for are loaded; every call runs in a fresh runtime context.
 * Must not apply hook semantics (chaining, allow/refuse): that is the engine's.
 */
export { discoverHooks, type DiscoverHooksOptions } from "./discover-hooks.ts";
export { discoverTools, type DiscoverToolsOptions } from "./discover-tools.ts";
export { extensionPorts, type CurrentTools, type ExtensionDialogs, type ExtensionPorts } from "./engine-ports.ts";
export { HOOK_POINT_NAMES, isHookPoint } from "./hook-points.ts";
export {
  brokenExtension,
  missingExtensionError,
  unknownExtensionMessage,
  type ExtensionNames,
} from "./missing-extension-error.ts";
export type {
  ExtensionDiagnostic,
  ExtensionKind,
  Hook,
  HookCallResult,
  HookCatalog,
  HookPointName,
  ToolCatalog,
} from "./types.ts";
