/**
 * Built-in connection templates (contract.md §2). Vendors are data: a preset
 * names a protocol, an endpoint and the defaults of model settings the
 * service needs, never behaviour.
 */
import type { ProtocolName } from "../providers/types.ts";
import type { Preset } from "./types.ts";

/** Preset name -> protocol and base URL. An explicit `base_url` overrides the URL. */
export const PRESETS: Readonly<Record<string, Preset>> = Object.freeze({
  anthropic: { protocol: "anthropic", baseUrl: "https://api.anthropic.com" },
  openai: { protocol: "openai_responses", baseUrl: "https://api.openai.com/v1" },
  openrouter: { protocol: "openai_chat_completions", baseUrl: "https://openrouter.ai/api/v1" },
  deepseek: { protocol: "openai_chat_completions", baseUrl: "https://api.deepseek.com", sendThinking: true },
  ollama: { protocol: "openai_chat_completions", baseUrl: "http://127.0.0.1:11434/v1" },
  lmstudio: { protocol: "openai_chat_completions", baseUrl: "http://127.0.0.1:1234/v1" },
});

/**
 * Hosts whose Chat Completions thinking models refuse a tool-using turn
 * sent back without its reasoning (DeepSeek; Moonshot's Kimi, international,
 * China and Kimi Code endpoints): `send_thinking` defaults to on for them,
 * whether reached through a preset or through `protocol` and `base_url`.
 */
const SENDS_THINKING_HOSTS: readonly string[] = Object.freeze([
  "api.deepseek.com",
  "api.moonshot.ai",
  "api.moonshot.cn",
  "api.kimi.com",
]);

/** The default of `send_thinking` for a provider: its preset's, else on for the hosts above. */
export function sendsThinkingByDefault(preset: string | undefined, baseUrl: string): boolean | undefined {
  const fromPreset = preset === undefined ? undefined : findPreset(preset)?.sendThinking;
  if (fromPreset !== undefined) return fromPreset;
  let host = "";
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return undefined;
  }
  return SENDS_THINKING_HOSTS.includes(host) ? true : undefined;
}

/** Every value `protocol:` accepts. */
export const PROTOCOLS: readonly ProtocolName[] = Object.freeze([
  "openai_chat_completions",
  "openai_responses",
  "anthropic",
  "replay",
]);

/** The preset called `name`, if there is one (own keys only: "constructor" is no preset). */
export function findPreset(name: string): Preset | undefined {
  return Object.hasOwn(PRESETS, name) ? PRESETS[name] : undefined;
}

/** True when `name` is a protocol Rienda speaks. */
export function isProtocolName(name: string): name is ProtocolName {
  return (PROTOCOLS as readonly string[]).includes(name);
}
