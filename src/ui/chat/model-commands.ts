/**
 * `/model` and `/thinking`: the model of the conversation and its thinking
 * level, from a list or named (docs/chat.md "Models and thinking levels").
 * Both take effect from the next message; a refused one changes nothing.
 */
import type { ChatRenderer } from "./chat-renderer.ts";
import type { ChatStyle } from "./chat-style.ts";
import type { Choice } from "./prompts.ts";
import type { ChatBackend, ChatStatus } from "./types.ts";

/** What the two commands use of chat-commands.ts's CommandContext. */
interface ModelContext {
  backend: ChatBackend;
  renderer: ChatRenderer;
  style: ChatStyle;
  pick(message: string, choices: Choice[], initial?: string): Promise<string | undefined>;
  interruptible<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T>;
}

/** What `/model` says when no provider offers a model (the current one's provider lost its key, say). */
export const NOTHING_OFFERED =
  "no provider offers a model: declare one in ~/.rienda/config.yaml or add a provider module to ~/.rienda/providers, and store its key with rienda auth (docs/providers.md)";

/** `p/m`, or `p/m · thinking high` when the model thinks. */
export function modelText(status: Pick<ChatStatus, "model" | "thinking">): string {
  return status.thinking === undefined || status.thinking === "off"
    ? status.model
    : `${status.model} · thinking ${status.thinking}`;
}

/** `/model [REF]`: without REF, a pick from every model offered, the current one marked. */
export async function modelCommand(argument: string, ctx: ModelContext): Promise<void> {
  const { backend, renderer, style } = ctx;
  const current = backend.status().model;
  let ref: string | undefined = argument;
  if (ref === "") {
    // Listing evaluates provider modules: Ctrl-C gives up on it.
    const [offered, rows] = await ctx.interruptible(() => Promise.all([backend.listModels(), backend.modelRows()]));
    const keyless = [...new Set(rows.filter((row) => row.key.startsWith("missing")).map((row) => row.provider))];
    if (offered.length === 0) {
      renderer.line(style.warn(NOTHING_OFFERED));
      return;
    }
    const needKeys = keyless.map((name) => ({
      value: `${KEYLESS}${name}`,
      label: `${name}/… needs a key: rienda auth ${name}`,
    }));
    ref = await ctx.pick("Switch to which model?", [...marked(offered, current), ...needKeys], current);
  }
  if (ref?.startsWith(KEYLESS)) {
    const name = ref.slice(KEYLESS.length);
    renderer.line(
      style.warn(
        `${name}'s models need a key: store one with rienda auth ${name} (docs/providers.md), then /model again`,
      ),
    );
    return;
  }
  if (!ref) return;
  const chosen = ref;
  await ctx.interruptible((signal) => backend.switchModel(chosen, signal));
  renderer.line(style.ok(`model: ${modelText(backend.status())}`));
  for (const notice of backend.notices()) renderer.notice(notice);
}

/** `/thinking [LEVEL]`: without LEVEL, a pick from the model's levels, the current one marked. */
export async function thinkingCommand(argument: string, ctx: ModelContext): Promise<void> {
  const { backend, renderer, style } = ctx;
  const status = backend.status();
  const current = status.thinking ?? "off";
  const level =
    argument ||
    (await ctx.pick(`Thinking level of ${status.model}?`, marked(backend.thinkingLevels(), current), current));
  if (!level) return;
  const notices = backend.setThinking(level);
  const now = backend.status();
  renderer.line(style.ok(`thinking: ${now.thinking ?? "off"} (model ${now.model}), from your next message`));
  for (const notice of notices) renderer.notice(notice);
}

/** The value of a keyless provider's line in the model list: not a model reference (those hold a `/`). */
const KEYLESS = "needs-key:";

function marked(values: readonly string[], current: string): Choice[] {
  return values.map((value) => ({ value, label: value === current ? `${value} (current)` : value }));
}
