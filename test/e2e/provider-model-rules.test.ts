/**
 * Model rules through the binary: a Go-era model block (a thinking budget,
 * temperature, top_p) sends what each model generation takes, as the
 * scripted provider receives it; thinking of a current Claude model, between
 * tool calls too, goes back unchanged and is never printed as the answer.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { Instance } from "../support/instance.ts";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";
import { recording } from "../support/recorded-corpus.ts";
import { sessionIdFrom } from "../support/session-reader.ts";

let server: ProviderServer | undefined;
let inst: Instance | undefined;
afterEach(async () => {
  await server?.close();
  inst?.dispose();
  server = undefined;
  inst = undefined;
});

const GO_ERA = ["        thinking_max_tokens: 4096", "        temperature: 0.3", "        top_p: 0.9"];

/** A provider `p` of `protocol` on the scripted server with models by alias → lines of settings (id first). */
async function setup(
  protocol: string,
  models: Record<string, string[]>,
  tools = false,
): Promise<{ server: ProviderServer; inst: Instance }> {
  server = await startProviderServer();
  inst = new Instance();
  const base = protocol === "anthropic" ? server.url : `${server.url}/v1`;
  const lines = [
    "providers:",
    "  p:",
    `    protocol: ${protocol}`,
    `    base_url: ${base}`,
    "    api_key: test-key",
    "    models:",
  ];
  for (const [alias, settings] of Object.entries(models)) lines.push(`      ${alias}:`, ...settings);
  inst.config(`${lines.join("\n")}\n`);
  for (const alias of Object.keys(models)) {
    inst.agent(
      alias,
      [
        "---",
        "description: A test agent.",
        `model: p/${alias}`,
        ...(tools ? ["tools: [shell]"] : []),
        "---",
        "You are a test agent.",
        "",
      ].join("\n"),
    );
  }
  return { server, inst };
}

const bodyOf = (n: number) => server!.requests[n]!.body as Record<string, unknown>;

describe("a Go-era model block on Anthropic's generations", () => {
  test("Claude Sonnet 5 gets adaptive thinking and no sampling settings; Claude 3.7 Sonnet gets the budget as before", async () => {
    await setup("anthropic", {
      current: ["        id: claude-sonnet-5", ...GO_ERA],
      old: ["        id: claude-3-7-sonnet-20250219", ...GO_ERA],
      plain: ["        id: claude-3-7-sonnet-20250219", "        temperature: 0.3"],
    });
    server!.script({ text: "new" }, { text: "old" }, { text: "plain" });
    const current = await inst!.run(["run", "-a", "current", "-p", "x"]);
    expect(current.code).toBe(0);
    expect(current.stdout).toBe("new\n");
    const sent = bodyOf(0);
    expect(sent.model).toBe("claude-sonnet-5");
    expect(sent.thinking).toEqual({ type: "adaptive", display: "summarized" });
    expect(["temperature", "top_p", "top_k", "output_config"].filter((key) => key in sent)).toEqual([]);
    // The run says what it left out and why, a line per setting.
    const config = inst!.riendaPath("config.yaml");
    expect(current.stderr).toContain(
      `${config}: providers.p.models.current.thinking_max_tokens: is not sent as a budget: Claude Sonnet 5 thinks adaptively`,
    );
    expect(current.stderr).toContain(
      `${config}: providers.p.models.current.temperature: is not sent: Claude Sonnet 5 refuses sampling settings (HTTP 400)`,
    );
    expect(current.stderr).toContain("providers.p.models.current.top_p: is not sent");

    expect((await inst!.run(["run", "-a", "old", "-p", "x"])).code).toBe(0);
    expect(bodyOf(1).thinking).toEqual({ type: "enabled", budget_tokens: 4096 });
    expect("temperature" in bodyOf(1)).toBe(false);
    expect((await inst!.run(["run", "-a", "plain", "-p", "x"])).code).toBe(0);
    expect(bodyOf(2).temperature).toBe(0.3);
    expect("thinking" in bodyOf(2)).toBe(false);
  });

  test("thinking_level becomes the effort; rienda doctor lists the same warnings and stays healthy", async () => {
    await setup("anthropic", {
      m: ["        id: claude-opus-4-7", "        thinking_level: high", "        temperature: 0.5"],
    });
    server!.script({ text: "ok" });
    expect((await inst!.run(["run", "-a", "m", "-p", "x"])).code).toBe(0);
    expect(bodyOf(0)).toMatchObject({
      thinking: { type: "adaptive", display: "summarized" },
      output_config: { effort: "high" },
    });
    const doctor = await inst!.run(["doctor", "--json"]);
    expect(doctor.code).toBe(0);
    const report = JSON.parse(doctor.stdout) as { warnings: Array<{ key: string; message: string }> };
    expect(report.warnings.map((w) => [w.key, w.message])).toEqual([
      [
        "providers.p.models.m.temperature",
        "is not sent: Claude Opus 4.7 refuses sampling settings (HTTP 400); remove temperature",
      ],
    ]);
  });
});

describe("thinking of a current Claude model", () => {
  test("a recorded Claude Sonnet 5 answer: stdout is the answer alone, and its signed thinking goes back unchanged with -s", async () => {
    await setup("anthropic", { m: ["        id: claude-sonnet-5", "        thinking_level: medium"] });
    const rec = recording("anthropic", "claude-sonnet-5-reasoning-summarized.chunks.txt");
    server!.script({ recorded: rec.body }, { text: "Still 21." });
    const first = await inst!.run(["run", "-a", "m", "-p", "gcd of 1071 and 462?"]);
    expect(first.code).toBe(0);
    expect(first.stdout).toStartWith("# Finding GCD(1071, 462) Using the Euclidean Algorithm");
    expect(first.stdout).not.toContain("Euclidean algorithm to find");
    const second = await inst!.run(["run", "-s", sessionIdFrom(first.stderr), "-p", "sure?"]);
    expect(second.code).toBe(0);
    const messages = bodyOf(1).messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    const thinking = messages[1]?.content[0];
    expect(thinking?.type).toBe("thinking");
    expect(thinking?.thinking).toBe(
      "I'm working through the Euclidean algorithm to find the GCD of 1071 and 462, applying successive division until I reach a remainder of zero, which gives me 21 as the greatest common divisor.",
    );
    expect(String(thinking?.signature)).toStartWith("EsECCokBCBAYAipA9i3HF1aH");
    expect(String(thinking?.signature)).toEndWith("L4oPGAE=");
  });

  test("thinking between tool calls (Claude Sonnet 5.5, display omitted) stays thinking, in order, and goes back exactly as it came", async () => {
    await setup("anthropic", { m: ["        id: claude-sonnet-5-5"] }, true);
    // Constructed after the documented event shape (not a recording): an omitted-display thinking block
    // (empty text, a signature), a call, the progress note between the calls as a thinking block, a call.
    const events: Array<[string, Record<string, unknown>]> = [
      [
        "message_start",
        {
          type: "message_start",
          message: { model: "claude-sonnet-5-5", usage: { input_tokens: 30, output_tokens: 1 } },
        },
      ],
      [
        "content_block_start",
        { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } },
      ],
      [
        "content_block_delta",
        { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig-omitted-A" } },
      ],
      ["content_block_stop", { type: "content_block_stop", index: 0 }],
      [
        "content_block_start",
        {
          type: "content_block_start",
          index: 1,
          content_block: { type: "tool_use", id: "toolu_1", name: "shell", input: {} },
        },
      ],
      [
        "content_block_delta",
        {
          type: "content_block_delta",
          index: 1,
          delta: { type: "input_json_delta", partial_json: '{"command": "echo one"}' },
        },
      ],
      ["content_block_stop", { type: "content_block_stop", index: 1 }],
      [
        "content_block_start",
        { type: "content_block_start", index: 2, content_block: { type: "thinking", thinking: "", signature: "" } },
      ],
      [
        "content_block_delta",
        {
          type: "content_block_delta",
          index: 2,
          delta: { type: "thinking_delta", thinking: "First file read; now the second." },
        },
      ],
      [
        "content_block_delta",
        { type: "content_block_delta", index: 2, delta: { type: "signature_delta", signature: "sig-between-B" } },
      ],
      ["content_block_stop", { type: "content_block_stop", index: 2 }],
      [
        "content_block_start",
        {
          type: "content_block_start",
          index: 3,
          content_block: { type: "tool_use", id: "toolu_2", name: "shell", input: {} },
        },
      ],
      [
        "content_block_delta",
        {
          type: "content_block_delta",
          index: 3,
          delta: { type: "input_json_delta", partial_json: '{"command": "echo two"}' },
        },
      ],
      ["content_block_stop", { type: "content_block_stop", index: 3 }],
      ["message_delta", { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 40 } }],
      ["message_stop", { type: "message_stop" }],
    ];
    const body = events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join("");
    server!.script({ recorded: body }, { text: "Both echoed." });
    const r = await inst!.run(["run", "-a", "m", "-p", "run both", "-y"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Both echoed.\n");
    expect(r.stdout + r.stderr).not.toContain("First file read");
    // Preserved thinking: a block whose prefix changed is dropped by the API instead of failing the request.
    expect(bodyOf(1).thinking).toEqual({ type: "adaptive", block_binding: { prefix_mismatch_behavior: "drop_block" } });
    expect(server!.requests[1]!.headers["anthropic-beta"]).toBe("thinking-binding-controls-2026-08-01");
    const messages = bodyOf(1).messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    expect(messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "", signature: "sig-omitted-A" },
        { type: "tool_use", id: "toolu_1", name: "shell", input: { command: "echo one" } },
        { type: "thinking", thinking: "First file read; now the second.", signature: "sig-between-B" },
        { type: "tool_use", id: "toolu_2", name: "shell", input: { command: "echo two" } },
      ],
    });
  });
});

describe("OpenAI reasoning models", () => {
  test("gpt-5 on Chat Completions: no temperature or top_p, max_completion_tokens; gpt-4o keeps them", async () => {
    await setup("openai_chat_completions", {
      g5: [
        "        id: gpt-5",
        "        temperature: 0.3",
        "        top_p: 0.9",
        "        max_tokens: 2000",
        "        thinking_level: low",
      ],
      g4: ["        id: gpt-4o", "        temperature: 0.3", "        max_tokens: 2000"],
    });
    server!.script({ text: "five" }, { text: "four" });
    const r = await inst!.run(["run", "-a", "g5", "-p", "x"]);
    expect(r.code).toBe(0);
    expect(bodyOf(0)).toMatchObject({ model: "gpt-5", max_completion_tokens: 2000, reasoning_effort: "low" });
    expect(["temperature", "top_p", "max_tokens"].filter((key) => key in bodyOf(0))).toEqual([]);
    expect(r.stderr).toContain(
      "providers.p.models.g5.temperature: is not sent: gpt-5 is a reasoning model and refuses temperature (HTTP 400)",
    );
    expect((await inst!.run(["run", "-a", "g4", "-p", "x"])).code).toBe(0);
    expect(bodyOf(1)).toMatchObject({ temperature: 0.3, max_tokens: 2000 });
  });

  test("gpt-5.1 on Responses: minimal is sent as low, with encrypted reasoning asked for", async () => {
    await setup("openai_responses", { m: ["        id: gpt-5.1", "        thinking_level: minimal"] });
    server!.script({ text: "ok" });
    expect((await inst!.run(["run", "-a", "m", "-p", "x"])).code).toBe(0);
    expect(bodyOf(0)).toMatchObject({
      reasoning: { effort: "low", summary: "auto" },
      include: ["reasoning.encrypted_content"],
    });
  });
});
