/** The names of the hook points, as extensions/ checks hook modules against them. */
import { HOOK_POINTS, type HookPoint } from "../engine/index.ts";

/** Every point a hook may handle, in the order a run reaches them (hooks.md); the engine owns the list. */
export const HOOK_POINT_NAMES: readonly HookPoint[] = HOOK_POINTS;

/** Whether `name` is one of the six points. */
export function isHookPoint(name: string): name is HookPoint {
  return (HOOK_POINT_NAMES as readonly string[]).includes(name);
}
