/**
 * Model rules per family: which Claude and OpenAI models take which settings,
 * and the request each builder sends for a Go-era model block (a thinking
 * budget, a temperature) on current and older models.
 */
import { describe, expect, test } from "bun:test";
import { buildAnthropicRequest } from "../../src/providers/anthropic-request.ts";
import { claudeRules } from "../../src/providers/claude-model.ts";
import { buildOpenAIChatRequest } from "../../src/providers/openai-chat-request.ts";
import { openAIRules } from "../../src/providers/openai-model.ts";
import { buildOpenAIResponsesRequest } from "../../src/providers/openai-responses-request.ts";
import { planSettings } from "../../src/providers/settings-plan.ts";
import type { ResolvedModel } from "../../src/providers/types.ts";
import { sampleRequest } from "./sample-request.ts";

const anthropic = (model: Partial<ResolvedModel>) =>
  buildAnthropicRequest(
    sampleRequest({ protocol: "anthropic", baseUrl: "https://api.anthropic.com", cache: false, ...model }),
  ).body;
const chat = (model: Partial<ResolvedModel>) =>
  buildOpenAIChatRequest(sampleRequest({ protocol: "openai_chat_completions", ...model })).body;
const responses = (model: Partial<ResolvedModel>) =>
  buildOpenAIResponsesRequest(sampleRequest({ protocol: "openai_responses", ...model })).body;
/** The settings a Go-era config typically carries. */
const GO_ERA = { thinkingMaxTokens: 4096, temperature: 0.3, topP: 0.9 } as const;

describe("Claude model ids", () => {
  test("each id form names its family and generation", () => {
    const rows = [
      ["claude-3-7-sonnet-20250219", "Claude Sonnet 3.7", "budget", false, "any"],
      ["claude-3-7-sonnet-latest", "Claude Sonnet 3.7", "budget", false, "any"],
      ["claude-sonnet-4-20250514", "Claude Sonnet 4", "budget", false, "any"],
      ["claude-opus-4-1-20250805", "Claude Opus 4.1", "budget", false, "one"],
      ["claude-sonnet-4-5-20250929", "Claude Sonnet 4.5", "budget", false, "one"],
      ["claude-haiku-4-5", "Claude Haiku 4.5", "budget", false, "one"],
      ["claude-opus-4-5-20251101", "Claude Opus 4.5", "budget", true, "one"],
      ["claude-opus-4-6", "Claude Opus 4.6", "both", true, "one"],
      ["us.anthropic.claude-sonnet-4-6", "Claude Sonnet 4.6", "both", true, "one"],
      ["claude-mythos-preview", "Claude Mythos Preview", "both", true, "none"],
      ["claude-opus-4-7", "Claude Opus 4.7", "adaptive", true, "none"],
      ["claude-opus-4-8", "Claude Opus 4.8", "adaptive", true, "none"],
      ["claude-sonnet-5", "Claude Sonnet 5", "adaptive", true, "none"],
      ["anthropic.claude-sonnet-5", "Claude Sonnet 5", "adaptive", true, "none"],
      ["claude-sonnet-5-5", "Claude Sonnet 5.5", "adaptive", true, "none"],
      ["claude-opus-5@20260501", "Claude Opus 5", "adaptive", true, "none"],
      ["claude-haiku-5-5", "Claude Haiku 5.5", "adaptive", true, "none"],
      ["claude-fable-5-1", "Claude Fable 5.1", "adaptive", true, "none"],
      ["anthropic/claude-sonnet-4.5", "Claude Sonnet 4.5", "budget", false, "one"],
    ] as const;
    const preserved = new Set(["claude-sonnet-5-5", "claude-haiku-5-5", "claude-fable-5-1"]);
    for (const [id, name, thinking, effort, sampling] of rows) {
      expect([id, claudeRules(id)]).toEqual([
        id,
        { name, thinking, effort, sampling, preservedThinking: preserved.has(id) },
      ]);
    }
    expect(claudeRules("claude-opus-5-5")?.preservedThinking).toBe(true);
    expect(claudeRules("claude-fable-5")?.preservedThinking).toBe(false);
  });

  test("ids that name no Claude model Rienda knows have no rules", () => {
    for (const id of ["sonnet", "MiniMax-M2", "deepseek-chat", "claude-2.1", "my-claude"])
      expect(claudeRules(id)).toBeUndefined();
  });
});

describe("Anthropic requests per generation", () => {
  test("Claude 4.7 and later: a thinking budget becomes adaptive thinking, sampling settings are left out", () => {
    for (const wireId of ["claude-sonnet-5", "claude-opus-4-7", "claude-opus-5", "claude-fable-5"]) {
      const body = anthropic({ wireId, ...GO_ERA });
      expect(body.thinking).toEqual({ type: "adaptive", display: "summarized" });
      expect(["temperature", "top_p", "top_k", "output_config"].filter((key) => key in body)).toEqual([]);
      // The budget still sizes the room left for thinking, as before.
      expect(body.max_tokens).toBe(8192);
    }
    expect(anthropic({ wireId: "claude-sonnet-5", thinkingMaxTokens: 16000 }).max_tokens).toBe(24192);
  });

  test("preserved thinking (Fable 5.1, Opus, Sonnet and Haiku 5.5): thinking blocks whose prefix changed are dropped, not a 400", () => {
    for (const wireId of ["claude-sonnet-5-5", "claude-opus-5-5", "claude-fable-5-1", "claude-haiku-5-5"]) {
      const spec = buildAnthropicRequest(
        sampleRequest({ protocol: "anthropic", baseUrl: "https://api.anthropic.com", wireId, ...GO_ERA }),
      );
      expect(spec.body.thinking).toEqual({
        type: "adaptive",
        display: "summarized",
        block_binding: { prefix_mismatch_behavior: "drop_block" },
      });
      expect(spec.headers["anthropic-beta"]).toBe("thinking-binding-controls-2026-08-01");
      expect("temperature" in spec.body).toBe(false);
    }
    // With no thinking settings the binding is still chosen; the model thinks adaptively by default anyway.
    const plain = buildAnthropicRequest(
      sampleRequest({ protocol: "anthropic", baseUrl: "https://api.anthropic.com", wireId: "claude-sonnet-5-5" }),
    );
    expect(plain.body.thinking).toEqual({
      type: "adaptive",
      block_binding: { prefix_mismatch_behavior: "drop_block" },
    });
    // A beta the provider's headers name is kept beside it.
    const both = buildAnthropicRequest(
      sampleRequest({
        protocol: "anthropic",
        baseUrl: "https://api.anthropic.com",
        wireId: "claude-opus-5-5",
        headers: { "Anthropic-Beta": "context-1m" },
      }),
    );
    expect(both.headers["Anthropic-Beta"]).toBe("context-1m,thinking-binding-controls-2026-08-01");
    expect("anthropic-beta" in both.headers).toBe(false);
    // Older generations get no beta header.
    expect(
      "anthropic-beta" in
        buildAnthropicRequest(sampleRequest({ protocol: "anthropic", wireId: "claude-sonnet-5" })).headers,
    ).toBe(false);
  });

  test("Claude 4.7 and later: thinking_level is the effort, with adaptive thinking; minimal is low", () => {
    expect(anthropic({ wireId: "claude-opus-4-7", thinkingLevel: "medium" })).toMatchObject({
      thinking: { type: "adaptive", display: "summarized" },
      output_config: { effort: "medium" },
    });
    expect(
      anthropic({ wireId: "claude-sonnet-5", thinkingLevel: "minimal", thinkingMaxTokens: 2048 }).output_config,
    ).toEqual({ effort: "low" });
  });

  test("Claude 4.7 and later: with no thinking settings nothing about thinking is sent (the model's default)", () => {
    const body = anthropic({ wireId: "claude-sonnet-5", temperature: 0.2 });
    expect(["thinking", "output_config", "temperature"].filter((key) => key in body)).toEqual([]);
  });

  test("Claude 4.6: the budget still goes as a budget (deprecated, accepted); thinking_level is the effort and turns nothing else on", () => {
    expect(anthropic({ wireId: "claude-sonnet-4-6", ...GO_ERA })).toMatchObject({
      thinking: { type: "enabled", budget_tokens: 4096 },
    });
    expect("temperature" in anthropic({ wireId: "claude-sonnet-4-6", ...GO_ERA })).toBe(false);
    const levelOnly = anthropic({ wireId: "claude-opus-4-6", thinkingLevel: "high", temperature: 0.3 });
    expect(levelOnly).toMatchObject({ output_config: { effort: "high" }, temperature: 0.3 });
    expect("thinking" in levelOnly).toBe(false);
    expect(anthropic({ wireId: "claude-opus-4-6", thinkingLevel: "high", thinkingMaxTokens: 3000 })).toMatchObject({
      thinking: { type: "enabled", budget_tokens: 3000 },
      output_config: { effort: "high" },
    });
  });

  test("Claude 3.7 to 4.5: a Go-era model block is sent as before", () => {
    for (const wireId of [
      "claude-3-7-sonnet-20250219",
      "claude-sonnet-4-5",
      "claude-haiku-4-5-20251001",
      "claude-opus-4-1",
    ]) {
      const body = anthropic({ wireId, ...GO_ERA });
      expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 4096 });
      expect(["temperature", "top_p", "output_config"].filter((key) => key in body)).toEqual([]);
    }
    expect(anthropic({ wireId: "claude-3-7-sonnet-latest", temperature: 0.3, topP: 0.9 })).toMatchObject({
      temperature: 0.3,
      top_p: 0.9,
    });
    expect(anthropic({ wireId: "claude-sonnet-4-5", temperature: 0.3 })).toMatchObject({ temperature: 0.3 });
  });

  test("Claude 4.1 to 4.6 refuse temperature with top_p: temperature alone is sent", () => {
    const body = anthropic({ wireId: "claude-sonnet-4-5", temperature: 0.3, topP: 0.9 });
    expect(body.temperature).toBe(0.3);
    expect("top_p" in body).toBe(false);
    expect(anthropic({ wireId: "claude-opus-4-1", topP: 0.9 }).top_p).toBe(0.9);
  });

  test("effort goes only to models that take it: Opus 4.5 does, Sonnet 4.5 and Haiku 4.5 do not", () => {
    expect(anthropic({ wireId: "claude-opus-4-5-20251101", thinkingLevel: "low" }).output_config).toEqual({
      effort: "low",
    });
    expect("thinking" in anthropic({ wireId: "claude-opus-4-5-20251101", thinkingLevel: "low" })).toBe(false);
    expect("output_config" in anthropic({ wireId: "claude-sonnet-4-5", thinkingLevel: "low" })).toBe(false);
    expect("output_config" in anthropic({ wireId: "claude-haiku-4-5", thinkingLevel: "low" })).toBe(false);
  });

  test("an id Rienda cannot place is sent as written; request_rules forces either set of rules", () => {
    expect(anthropic({ wireId: "MiniMax-M2", ...GO_ERA, thinkingLevel: "high" })).toMatchObject({
      thinking: { type: "enabled", budget_tokens: 4096 },
    });
    expect("output_config" in anthropic({ wireId: "MiniMax-M2", thinkingLevel: "high" })).toBe(false);
    const forced = anthropic({ wireId: "house-claude", ...GO_ERA, requestRules: "claude_adaptive" });
    expect(forced.thinking).toEqual({ type: "adaptive", display: "summarized" });
    expect("temperature" in forced).toBe(false);
    const written = anthropic({ wireId: "claude-sonnet-5", thinkingMaxTokens: 4096, requestRules: "as_written" });
    expect(written.thinking).toEqual({ type: "enabled", budget_tokens: 4096 });
  });

  test("each setting left out or changed carries a notice naming the model and the reason", () => {
    const notices = planSettings({ protocol: "anthropic", wireId: "claude-sonnet-5", ...GO_ERA }).notices;
    expect(notices.map((n) => n.key)).toEqual(["thinking_max_tokens", "temperature", "top_p"]);
    expect(notices[0]?.message).toContain("Claude Sonnet 5 thinks adaptively and refuses a thinking budget (HTTP 400)");
    expect(notices[1]?.message).toContain("Claude Sonnet 5 refuses sampling settings (HTTP 400)");
    expect(planSettings({ protocol: "anthropic", wireId: "claude-sonnet-4-5", temperature: 0.2 }).notices).toEqual([]);
    expect(
      planSettings({ protocol: "anthropic", wireId: "claude-sonnet-4-5", thinkingLevel: "high" }).notices[0]?.message,
    ).toContain("Claude Sonnet 4.5 takes no effort setting");
  });
});

describe("OpenAI model ids", () => {
  test("reasoning models, models that do not reason, and ids of other vendors", () => {
    expect(openAIRules("o3")?.reasoning).toBe(true);
    expect(openAIRules("o4-mini")?.reasoning).toBe(true);
    expect(openAIRules("gpt-5")).toMatchObject({ reasoning: true, refusedEfforts: [] });
    expect(openAIRules("gpt-5.1")).toMatchObject({ reasoning: true, refusedEfforts: ["minimal"] });
    expect(openAIRules("openai/gpt-5.5-codex")).toMatchObject({ reasoning: true, refusedEfforts: ["minimal"] });
    expect(openAIRules("gpt-5-pro")).toMatchObject({ reasoning: true, onlyEffort: "high" });
    expect(openAIRules("gpt-5-chat-latest")?.reasoning).toBe(false);
    expect(openAIRules("gpt-4o")?.reasoning).toBe(false);
    expect(openAIRules("gpt-4.1-mini")?.reasoning).toBe(false);
    for (const id of ["deepseek-reasoner", "llama3.1:8b", "gpt-oss-120b", "qwen3"])
      expect(openAIRules(id)).toBeUndefined();
  });
});

describe("OpenAI requests", () => {
  test("a reasoning model gets no temperature or top_p, and max_completion_tokens on Chat Completions", () => {
    const body = chat({ wireId: "gpt-5", temperature: 0.3, topP: 0.9, maxTokens: 2000, thinkingLevel: "high" });
    expect(body).toMatchObject({ reasoning_effort: "high", max_completion_tokens: 2000 });
    expect(["temperature", "top_p", "max_tokens"].filter((key) => key in body)).toEqual([]);
    const r = responses({ wireId: "o3", temperature: 0.3, maxTokens: 2000, thinkingLevel: "medium" });
    expect(r).toMatchObject({
      reasoning: { effort: "medium", summary: "auto" },
      max_output_tokens: 2000,
      include: ["reasoning.encrypted_content"],
    });
    expect("temperature" in r).toBe(false);
  });

  test("gpt-5.1 and later default to effort none, where they take temperature and top_p; with an effort they refuse them", () => {
    expect(chat({ wireId: "gpt-5.2", temperature: 0.3, topP: 0.9 })).toMatchObject({ temperature: 0.3, top_p: 0.9 });
    const withEffort = chat({ wireId: "gpt-5.2", temperature: 0.3, thinkingLevel: "high" });
    expect("temperature" in withEffort).toBe(false);
    expect(
      planSettings({ protocol: "openai_chat_completions", wireId: "gpt-5.2", temperature: 0.3, thinkingLevel: "high" })
        .notices[0]?.message,
    ).toBe(
      "is not sent: gpt-5.2 is a reasoning model and refuses temperature with a reasoning effort set (thinking_level) (HTTP 400); remove temperature",
    );
    // gpt-5 (default effort medium) and the codex and mini variants Rienda has no default for: never.
    expect("temperature" in chat({ wireId: "gpt-5", temperature: 0.3 })).toBe(false);
    expect("temperature" in chat({ wireId: "gpt-5.1-codex", temperature: 0.3 })).toBe(false);
  });

  test("gpt-5.1 and later refuse minimal: it is sent as low; gpt-5-pro takes only high", () => {
    expect(chat({ wireId: "gpt-5.2", thinkingLevel: "minimal" }).reasoning_effort).toBe("low");
    expect(responses({ wireId: "gpt-5.1", thinkingLevel: "minimal" }).reasoning).toEqual({
      effort: "low",
      summary: "auto",
    });
    expect(chat({ wireId: "gpt-5", thinkingLevel: "minimal" }).reasoning_effort).toBe("minimal");
    expect(responses({ wireId: "gpt-5-pro", thinkingLevel: "low" }).reasoning).toEqual({
      effort: "high",
      summary: "auto",
    });
  });

  test("a model that does not reason gets no effort and no encrypted reasoning, and keeps its sampling settings", () => {
    const r = responses({ wireId: "gpt-5-chat-latest", thinkingLevel: "high", temperature: 0.4 });
    expect(["reasoning", "include"].filter((key) => key in r)).toEqual([]);
    expect(r.temperature).toBe(0.4);
    expect("reasoning_effort" in chat({ wireId: "gpt-4o", thinkingLevel: "high" })).toBe(false);
  });

  test("other vendors' models on these protocols are sent as written", () => {
    const body = chat({
      wireId: "deepseek-reasoner",
      temperature: 0.6,
      topP: 0.9,
      maxTokens: 1000,
      thinkingLevel: "high",
    });
    expect(body).toMatchObject({ temperature: 0.6, top_p: 0.9, max_tokens: 1000, reasoning_effort: "high" });
    expect("max_completion_tokens" in body).toBe(false);
  });

  test("request_rules: openai_reasoning applies the reasoning rules to an id Rienda cannot place; as_written turns them off", () => {
    const forced = chat({
      wireId: "my-azure-deployment",
      temperature: 0.3,
      maxTokens: 100,
      requestRules: "openai_reasoning",
    });
    expect(["temperature", "max_tokens"].filter((key) => key in forced)).toEqual([]);
    expect(forced.max_completion_tokens).toBe(100);
    expect(chat({ wireId: "gpt-5", temperature: 0.3, requestRules: "as_written" }).temperature).toBe(0.3);
  });
});
