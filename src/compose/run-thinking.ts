/**
 * The thinking level a run uses (go-current.md §5-§6): `--thinking`, else
 * the session branch's level, else (a new session) the level state.json
 * remembers for the model, else the model's own (config.yaml's
 * `thinking_level`, or off). Only `--thinking` is refused when the model
 * does not offer it; a remembered level it does not offer is dropped with
 * a notice, since the model may have changed since.
 */
import type { ResolvedModel } from "../providers/index.ts";
import {
  currentThinking,
  offersThinking,
  readState,
  statePath,
  thinkingLevels,
  thinkingName,
  withThinking,
} from "../roster/index.ts";
import type { AgentRequest } from "./types.ts";

export interface RunThinking {
  model: ResolvedModel;
  /** The level in force, as a session entry records it (`off` for none). */
  level: string;
  /** Set by `--thinking` or state.json rather than by the model or the session: the session records it. */
  chosen: boolean;
  notices: string[];
}

/** Throws a RiendaError listing the model's levels when `--thinking` names one it does not offer. */
export function runThinking(model: ResolvedModel, request: AgentRequest): RunThinking {
  if (request.thinking !== undefined) {
    return {
      model: withThinking(model, request.thinking, "--thinking"),
      level: thinkingName(request.thinking),
      chosen: true,
      notices: [],
    };
  }
  const remembered = rememberedLevel(model, request);
  if (remembered === undefined) return { model, level: currentThinking(model), chosen: false, notices: [] };
  if (offersThinking(model, remembered.level)) {
    return {
      model: withThinking(model, remembered.level),
      level: thinkingName(remembered.level),
      chosen: remembered.where !== "the session's",
      notices: [],
    };
  }
  const notice = `${remembered.where} thinking level "${remembered.level}" is not one of ${model.ref}'s (${thinkingLevels(model).join(", ")}); it runs with ${currentThinking(model)}`;
  return { model, level: currentThinking(model), chosen: false, notices: [notice] };
}

function rememberedLevel(model: ResolvedModel, request: AgentRequest): { level: string; where: string } | undefined {
  if (request.sessionThinking !== undefined) return { level: request.sessionThinking, where: "the session's" };
  if (request.sessionModel !== undefined) return undefined;
  const level = readState(statePath(request.env, request.home)).lastThinking[model.ref];
  return level === undefined ? undefined : { level, where: "state.json's" };
}
