/**
 * The text of one streamed answer on its way into the ResponseBuilder,
 * with the tool calls a model wrote as text taken out of it
 * (`tool_calls_in_text`, docs/providers.md "Local servers"). Recovered
 * calls become ordinary calls of the answer; a reply that looks like a
 * call Rienda did not read gets a notice naming the setting to change.
 */
import type { ResponseBuilder } from "./response-builder.ts";
import { TextCallScanner } from "./text-call-scanner.ts";
import {
  CALL_MARKERS,
  formsOf,
  lookalikeForm,
  readTextToolCalls,
  type TextToolCallForm,
  type TextToolCallSetting,
} from "./text-tool-calls.ts";
import type { ModelRequest, StreamEvent } from "./types.ts";

/** What a recovery needs to know about the request. */
export interface TextCallContext {
  setting: TextToolCallSetting;
  /** The request's tools; without any, text is never read as calls. */
  toolNames: ReadonlySet<string>;
  /** `providers.<p>.models.<m>.tool_calls_in_text`, for the notice. */
  settingKey: string;
  modelRef: string;
}

/** The context of `request`: its model's setting (default: `auto` for a server on this machine, `off` elsewhere). */
export function textCallContext(request: ModelRequest, local: boolean): TextCallContext {
  const { model } = request;
  const part = (name: string) => (/^[A-Za-z0-9_-]+$/.test(name) ? name : JSON.stringify(name));
  return {
    setting: model.toolCallsInText ?? (local ? "auto" : "off"),
    toolNames: new Set(request.tools.map((tool) => tool.name)),
    settingKey: `providers.${part(model.provider)}.models.${part(model.alias)}.tool_calls_in_text`,
    modelRef: model.ref,
  };
}

export class TextCallRecovery {
  private readonly forms: readonly TextToolCallForm[];
  private readonly scanner: TextCallScanner | undefined;
  private whole = "";

  constructor(
    private readonly builder: ResponseBuilder,
    private readonly context: TextCallContext,
  ) {
    this.forms = context.toolNames.size > 0 ? formsOf(context.setting) : [];
    this.scanner =
      this.forms.length > 0
        ? new TextCallScanner(
            this.forms.map((form) => CALL_MARKERS[form]),
            this.forms.includes("llama3"),
          )
        : undefined;
  }

  /** A text delta of the answer: what can be shown now goes to the builder. */
  text(delta: string): StreamEvent[] {
    this.whole += delta;
    return this.builder.text(this.scanner ? this.scanner.push(delta) : delta);
  }

  /** At the end of the answer: held text as calls or as text, and any notice. True when calls were recovered. */
  finish(): { events: StreamEvent[]; recovered: boolean } {
    const events: StreamEvent[] = [];
    if (this.scanner) {
      events.push(...this.builder.text(this.scanner.flushPending()));
      const held = this.scanner.heldText();
      if (held !== undefined) {
        const read = readTextToolCalls(held, this.forms, this.context.toolNames);
        if (read) {
          events.push(...this.builder.text(read.text));
          // Ids unique across the session: a later answer's recovered calls must not pair with this one's results.
          read.calls.forEach((call, index) => {
            this.builder.toolCall(`text-call-${index}`, {
              id: `call_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`,
              name: call.name,
              arguments: call.arguments,
            });
          });
          return { events, recovered: true };
        }
        events.push(...this.builder.text(held));
      }
    }
    const notice = this.notice();
    if (notice) events.push({ type: "notice", message: notice });
    return { events, recovered: false };
  }

  private notice(): string | undefined {
    if (this.context.toolNames.size === 0) return undefined;
    const form = lookalikeForm(this.whole, this.context.toolNames);
    if (form === undefined) return undefined;
    const shape =
      form === "llama3" && !this.whole.includes(CALL_MARKERS.llama3) ? "a JSON call object" : CALL_MARKERS[form];
    if (this.forms.includes(form)) {
      return `${this.context.modelRef} wrote a tool call as text (${shape}) that could not be read as one (its JSON is incomplete or has no name); it is kept as text`;
    }
    // The request offered tools and the server took them, so a llama.cpp server already runs with --jinja
    // (without it, it refuses tools): what maps calls is its chat template, or vLLM's call parser.
    return `${this.context.modelRef} wrote what looks like a tool call as text (${shape}); nothing was run. Set ${this.context.settingKey}: ${form} in config.yaml to run such calls, or give the server a chat template that maps the model's calls (llama-server --chat-template-file, vllm --tool-call-parser)`;
  }
}
