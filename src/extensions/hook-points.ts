import type { HookPointName } from "./types.ts";

/** Every point a hook may handle, in the order a run reaches them (hooks.md). */
export const HOOK_POINT_NAMES: readonly HookPointName[] = [
  "beforeRun",
  "beforeModelRequest",
  "afterModelResponse",
  "beforeToolExecute",
  "afterToolExecute",
  "afterRun",
];

/** Whether `name` is one of the six points. */
export function isHookPoint(name: string): name is HookPointName {
  return (HOOK_POINT_NAMES as readonly string[]).includes(name);
}
