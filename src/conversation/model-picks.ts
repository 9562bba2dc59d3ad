/**
 * The models of the chat and of `rienda rpc` (docs/chat.md "Models and
 * thinking levels"): every model the roster offers, whether a new
 * conversation must ask for one (its agent names none, and neither `-m`,
 * state.json nor a single offered model decides: docs/providers.md "Which
 * model a session runs"), and state.json's record of what the user picked.
 */
import { loadAgent } from "../agents/index.ts";
import { loadConfig } from "../config/index.ts";
import { isRiendaError, messageOf } from "../errors.ts";
import { chooseModel, readState, recordPick, statePath, type Roster } from "../roster/index.ts";
import { openRoster } from "../compose/index.ts";

/** The front end's model picker: the pick, or undefined when the user cancels. */
export interface ModelPicker {
  pickModel(models: string[], agentId: string): Promise<string | undefined>;
}

/** Where the chat runs: HOME, the environment and `--config`. */
export interface ChatWhere {
  home: string;
  env: Record<string, string | undefined>;
  configPath?: string;
}

/** What a new conversation is started with, as far as its model is concerned (ConversationStart). */
interface ModelStart extends ChatWhere {
  modelRef?: string;
  sessionId?: string;
  /** Notices to show with the conversation's first ones. */
  notices?: string[];
}

/** The roster of the chat's config.yaml (`--config`, else RIENDA_CONFIG, else ~/.rienda). */
export function rosterOf(where: ChatWhere): Roster {
  return openRoster(
    loadConfig({ ...(where.configPath ? { flag: where.configPath } : {}), env: where.env, home: where.home }),
    where,
  );
}

/** Every `provider/model` the roster offers now, sorted (each module evaluated). */
export async function offeredModels(where: ChatWhere): Promise<string[]> {
  const roster = rosterOf(where);
  try {
    return await roster.models();
  } finally {
    await roster.close();
  }
}

/**
 * The models to ask the user to pick from before a new conversation with
 * `agentId` starts; undefined when the model is decided without asking
 * (`-m`, the agent's own, state.json's last_model, the only model offered),
 * or when nothing is offered: preparing the agent then fails with the
 * message that says how to declare a provider.
 */
export async function modelsToPick(start: ModelStart, agentId: string): Promise<string[] | undefined> {
  if (start.modelRef !== undefined || start.sessionId !== undefined) return undefined;
  try {
    if (loadAgent(start.home, agentId).model !== undefined) return undefined;
    const roster = rosterOf(start);
    try {
      await chooseModel(roster, readState(statePath(start.env, start.home)), agentId);
      return undefined;
    } catch (error) {
      if (!isRiendaError(error)) throw error;
      const offered = await roster.models();
      return offered.length > 1 ? offered : undefined;
    } finally {
      await roster.close();
    }
  } catch (error) {
    // An agent or config that cannot be read is reported by preparing the agent, with every other problem.
    if (isRiendaError(error)) return undefined;
    throw error;
  }
}

/**
 * Records a pick in state.json (`last_model`, and `last_thinking` of the
 * model when a level is given), as the Go program's pickers do. A pick
 * that cannot be recorded (a damaged state.json) changes nothing else: the
 * returned notice says why.
 */
export function rememberPick(where: ChatWhere, pick: { model: string; thinking?: string }): string | undefined {
  try {
    recordPick(statePath(where.env, where.home), pick);
    return undefined;
  } catch (error) {
    if (!isRiendaError(error)) throw error;
    return messageOf(error);
  }
}

/**
 * Before a new conversation whose model nothing decides: the model picker.
 * The pick becomes the conversation's model (as `-m` would) and state.json's
 * `last_model`. False when the user cancels it.
 */
export async function pickStartModel(start: ModelStart, agentId: string, screen: ModelPicker): Promise<boolean> {
  const offered = await modelsToPick(start, agentId);
  if (offered === undefined) return true;
  const ref = await screen.pickModel(offered, agentId);
  if (ref === undefined) return false;
  start.modelRef = ref;
  const notice = rememberPick(start, { model: ref });
  if (notice !== undefined) start.notices = [...(start.notices ?? []), notice];
  return true;
}
