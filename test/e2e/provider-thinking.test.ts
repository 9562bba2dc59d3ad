/**
 * Anthropic thinking details through the binary: an answer that spent its
 * whole budget thinking is stored once, not retried as empty; sampling
 * settings are not sent with thinking enabled.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { scenario, type Scenario, jsonEvents } from "../support/scenario.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

describe("Anthropic thinking", () => {
  test("a thinking-only answer cut by max_tokens is kept and not retried", async () => {
    s = await scenario({
      protocol: "anthropic",
      modelExtra: "        thinking_max_tokens: 1024\n        max_tokens: 1100",
    });
    s.server.script(
      { thinking: "Let me consider every case in turn", stopReason: "max_tokens" },
      { text: "should not be asked" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "think hard", "--json"]);
    const events = jsonEvents(r.stdout);
    expect(s.server.requests).toHaveLength(1);
    expect(events.filter((e) => e.type === "retry")).toHaveLength(0);
    expect(events.find((e) => e.type === "message_end")).toMatchObject({
      thinking: "Let me consider every case in turn",
      text: "",
      stopReason: "max_tokens",
    });
    expect(String(events.find((e) => e.type === "error")?.message ?? "")).not.toContain("empty answer");
  });

  test("temperature and top_p are not sent when thinking is enabled", async () => {
    s = await scenario({
      protocol: "anthropic",
      modelExtra: "        thinking_max_tokens: 2048\n        temperature: 0.3\n        top_p: 0.9",
    });
    s.server.script({ text: "fine" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    const body = s.server.requests[0]?.body as Record<string, unknown>;
    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
    expect("temperature" in body).toBe(false);
    expect("top_p" in body).toBe(false);
    // The run says so: a notice per setting that is not sent.
    expect(r.stderr).toContain(
      `${s.inst.riendaPath("config.yaml")}: providers.p.models.m.temperature: is not sent: Anthropic refuses temperature when thinking is enabled`,
    );
    expect(r.stderr).toContain("providers.p.models.m.top_p: is not sent");
  });
});
