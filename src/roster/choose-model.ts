/**
 * Which model a session runs when neither `-m`, the agent nor the session's
 * branch names one (go-current.md §5). The Go program then takes
 * `last_model` of state.json when it is still offered, else the first
 * model of the sorted roster. Ours stops short of that guess: a script must
 * not spend money on a model nobody chose. So: `last_model` when offered;
 * else the only model offered, when there is exactly one; else an error
 * naming `-m` and the models (docs/providers.md "Which model a session runs").
 */
import { RiendaError } from "../errors.ts";
import type { Roster } from "./types.ts";
import type { PickedState } from "./state-file.ts";

/** How many offered models an error lists before "and N more". */
const LISTED_MODELS = 12;

export async function chooseModel(roster: Roster, state: PickedState, agentId: string): Promise<string> {
  if (state.lastModel !== undefined && (await roster.offers(state.lastModel))) return state.lastModel;
  const offered = await roster.models();
  if (offered.length === 1) return offered[0]!;
  throw new RiendaError("usage", noModelMessage(agentId, offered));
}

function noModelMessage(agentId: string, offered: readonly string[]): string {
  const who = agentId === "" ? "the agent file names no model" : `agent "${agentId}" names no model`;
  if (offered.length === 0) {
    return `${who}, and no provider offers one: declare a provider in ~/.rienda/config.yaml or add a provider module to ~/.rienda/providers, and store its key with rienda auth (docs/providers.md)`;
  }
  const shown = offered.slice(0, LISTED_MODELS).join(", ");
  const more = offered.length > LISTED_MODELS ? `, and ${offered.length - LISTED_MODELS} more` : "";
  return `${who}: choose one with -m provider/model (offered: ${shown}${more})`;
}
