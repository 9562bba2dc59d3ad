/**
 * The chat's `/model` and `/thinking` (and rpc's `set_model`,
 * `set_thinking`, `list_models`) over the agent the chat holds
 * (docs/chat.md "Models and thinking levels"):
 *
 * - the models offered are the roster's (config.yaml's and provider
 *   modules'), not only config.yaml's;
 * - a model switch keeps the thinking level when the new model offers it,
 *   else the new model runs with its own and a notice says so;
 * - a level switch takes effect from the next turn without preparing the
 *   agent again (its tools and MCP servers keep running), is recorded on
 *   the session's branch and, in the chat, in state.json's `last_thinking`.
 */
import type { ResolvedModel } from "../providers/index.ts";
import { thinkingLevels, thinkingName, withThinking } from "../roster/index.ts";
import type { SessionFile } from "../sessions/index.ts";
import { offeredModels, rememberPick, type ChatWhere } from "./model-picks.ts";
import type { AgentRequest, PreparedAgent } from "../compose/index.ts";

/** What changes from the current agent's request in a switch. */
export type SwitchChanges = Pick<AgentRequest, "modelRef" | "sessionModel" | "sessionThinking">;

/** What the commands need of the conversation. */
export interface ModelHost {
  where: ChatWhere;
  /** The chat writes picks to state.json; rpc does not (a program's switches are not the user's picks). */
  rememberPicks: boolean;
  prepared(): PreparedAgent;
  session(): SessionFile | undefined;
  /** Prepares the current agent again with `changes` and makes it current (Ctrl-C gives up: `signal`). */
  switchAgentTo(changes: SwitchChanges, signal?: AbortSignal): Promise<void>;
  /** Makes `next` current without closing anything: the same agent at another level. */
  setPrepared(next: PreparedAgent): void;
  /** A notice to show with the next ones (a model pick state.json could not record). */
  notice(text: string): void;
}

/** listModels, switchModel, thinkingLevels and setThinking of the Conversation. */
export function modelCommands(host: ModelHost) {
  /** The model as prepared, before a level switch changed it: levels are put on it, so none is lost on the way (off drops config.yaml's budget). */
  let leveled: { agent: PreparedAgent; base: ResolvedModel } | undefined;
  /** Records the pick in state.json (the chat only); the notice when it could not be. */
  const remember = (pick: { model: string; thinking?: string }): string[] => {
    const notice = host.rememberPicks ? rememberPick(host.where, pick) : undefined;
    return notice === undefined ? [] : [notice];
  };
  return {
    listModels: () => offeredModels(host.where),
    async switchModel(ref: string, signal?: AbortSignal): Promise<void> {
      const current = host.prepared();
      await host.switchAgentTo(
        { modelRef: ref, sessionModel: current.model.ref, sessionThinking: current.thinking },
        signal,
      );
      for (const notice of remember({ model: host.prepared().model.ref })) host.notice(notice);
    },
    thinkingLevels: (): string[] => thinkingLevels(host.prepared().model),
    /** Refused (a RiendaError listing the model's levels) when the model does not offer `level`; returns notices of the switch. */
    setThinking(level: string): string[] {
      const current = host.prepared();
      const base = leveled?.agent === current ? leveled.base : current.model;
      // Refused (listing the model's levels) before anything changes.
      const model = withThinking(base, level.trim(), "thinking");
      const next: PreparedAgent = { ...current, model, thinking: thinkingName(level.trim()), thinkingChosen: true };
      leveled = { agent: next, base };
      host.setPrepared(next);
      const session = host.session();
      if (session) recordThinking(session, next);
      return remember({ model: model.ref, thinking: next.thinking });
    },
  };
}

/**
 * Records the level `prepared` runs with on the session's branch, a
 * `thinking` entry in the Go program's shape (go-current.md §5), when it
 * differs from the branch's: always when the level was chosen (`--thinking`,
 * state.json, `/thinking`), and when the branch records another. A model
 * running its own level on a branch that records none writes nothing, as
 * `rienda run` does.
 */
export function recordThinking(
  session: SessionFile,
  prepared: Pick<PreparedAgent, "thinking" | "thinkingChosen">,
): void {
  if (prepared.thinkingChosen || session.thinking !== undefined) session.appendThinking(prepared.thinking);
}
