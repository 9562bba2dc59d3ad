/**
 * Contract §7 (providers) and §2's presets, each statement checked word for
 * word against the binary: endpoints per protocol, the request fields and
 * headers it names, the retry schedule (5 attempts, 0.5 s doubling with
 * jitter) and which failures are retried, and the base URL each preset
 * supplies. Written from the contract alone by the spec audit.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Instance, waitFor } from "../support/instance.ts";
import { PROTOCOLS, jsonEvents, scenario, type Scenario } from "../support/scenario.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

/** A provider block for protocol `protocol` at `baseUrl`, key `key`, one model `m` (wire id `wire-model`). */
function providerConfig(protocol: string, baseUrl: string, extra = ""): string {
  return `providers:\n  p:\n    protocol: ${protocol}\n    base_url: ${baseUrl}\n    api_key: the-key\n${extra}    models:\n      m: { id: wire-model }\n`;
}

describe("endpoints and request fields (contract §7)", () => {
  test("openai_chat_completions: POST {base}/chat/completions, Bearer, stream: true, stream_options.include_usage", async () => {
    s = await scenario();
    s.inst.config(providerConfig("openai_chat_completions", `${s.server.url}/gateway/v9`));
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    const request = s.server.requests[0]!;
    expect([request.method, request.path]).toEqual(["POST", "/gateway/v9/chat/completions"]);
    expect(request.headers.authorization).toBe("Bearer the-key");
    expect(request.body).toMatchObject({ model: "wire-model", stream: true, stream_options: { include_usage: true } });
  });

  test("openai_responses: POST {base}/responses with store: false, streamed", async () => {
    s = await scenario();
    s.inst.config(providerConfig("openai_responses", `${s.server.url}/gateway/v9`));
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect(r.code).toBe(0);
    const request = s.server.requests[0]!;
    expect([request.method, request.path]).toEqual(["POST", "/gateway/v9/responses"]);
    expect(request.headers.authorization).toBe("Bearer the-key");
    expect(request.body).toMatchObject({ model: "wire-model", store: false, stream: true });
  });

  test("anthropic: {base}/v1/messages when base has no /v1 suffix, else {base}/messages; x-api-key, anthropic-version 2023-06-01, max_tokens 8192", async () => {
    s = await scenario();
    const cases: [string, string][] = [
      [s.server.url, "/v1/messages"],
      [`${s.server.url}/`, "/v1/messages"],
      [`${s.server.url}/proxy`, "/proxy/v1/messages"],
      [`${s.server.url}/proxy/v1`, "/proxy/v1/messages"],
      [`${s.server.url}/proxy/v1/`, "/proxy/v1/messages"],
    ];
    for (const [index, [base, path]] of cases.entries()) {
      s.inst.config(providerConfig("anthropic", base));
      s.server.script({ text: "ok" });
      const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
      expect(r.code).toBe(0);
      const request = s.server.requests[index]!;
      expect([request.method, request.path]).toEqual(["POST", path]);
      expect(request.headers["x-api-key"]).toBe("the-key");
      expect(request.headers.authorization).toBeUndefined();
      expect(request.headers["anthropic-version"]).toBe("2023-06-01");
      expect(request.body).toMatchObject({ model: "wire-model", max_tokens: 8192, stream: true });
    }
  });

  test("anthropic: a configured max_tokens replaces the default", async () => {
    s = await scenario({ protocol: "anthropic", modelExtra: "        max_tokens: 1000" });
    s.server.script({ text: "ok" });
    await s.inst.run(["run", "-a", "coder", "-p", "x"]);
    expect((s.server.requests[0]!.body as { max_tokens: number }).max_tokens).toBe(1000);
  });

  for (const protocol of PROTOCOLS) {
    test(`every answer is read as SSE: the request asks for a stream (${protocol})`, async () => {
      s = await scenario({ protocol });
      s.server.script({ text: "streamed" });
      const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
      expect(r.stdout).toBe("streamed\n");
      expect(s.server.requests[0]!.headers.accept).toContain("text/event-stream");
      expect((s.server.requests[0]!.body as { stream: boolean }).stream).toBe(true);
    });
  }
});

/** Delays of the retry schedule: 0.5 s doubling, each jittered (±20 % documented; the contract says "with jitter"). */
const BACKOFF_MS = [500, 1000, 2000, 4000];

describe("retries (contract §7: 5 attempts, 0.5 s doubling to 8 s with jitter)", () => {
  test("408, 409, 429 and 5xx are retried on the 0.5 s doubling schedule, and the fifth attempt is the last", async () => {
    s = await scenario();
    s.server.script(
      { error: { status: 408, message: "request timeout" } },
      { error: { status: 409, message: "conflict" } },
      { error: { status: 429, message: "rate limited" } },
      { error: { status: 500, message: "internal" } },
      { error: { status: 503, message: "still unavailable" } },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "--json"]);
    expect(r.code).toBe(1);
    expect(s.server.requests).toHaveLength(5);
    const events = jsonEvents(r.stdout);
    const retries = events.filter((e) => e.type === "retry");
    expect(retries.map((e) => e.attempt)).toEqual([1, 2, 3, 4]);
    for (const [i, retry] of retries.entries()) {
      const delay = retry.delayMs as number;
      expect(delay).toBeGreaterThanOrEqual(BACKOFF_MS[i]! * 0.8);
      expect(delay).toBeLessThanOrEqual(BACKOFF_MS[i]! * 1.2);
    }
    expect(retries.map((e) => String(e.message))).toEqual([
      expect.stringContaining("request timeout"),
      expect.stringContaining("conflict"),
      expect.stringContaining("rate limited"),
      expect.stringContaining("internal"),
    ]);
    const end = events.at(-1)!;
    expect(end).toMatchObject({ type: "run_end", reason: "error" });
    expect(String(end.message)).toContain("still unavailable");
  }, 30_000);

  for (const protocol of PROTOCOLS) {
    test(`a 502 and a 504 are retried, then the answer is printed once (${protocol})`, async () => {
      s = await scenario({ protocol });
      s.server.script(
        { error: { status: 502, message: "bad gateway" } },
        { error: { status: 504, message: "gateway timeout" } },
        { text: "through" },
      );
      const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe("through\n");
      expect(r.stderr.match(/^transient error, retrying in .*: HTTP 50[24]: /gm)).toHaveLength(2);
      expect(s.server.requests).toHaveLength(3);
    }, 20_000);

    test(`any other 4xx fails at once with the provider's message, no retry (${protocol})`, async () => {
      s = await scenario({ protocol });
      for (const [status, message] of [
        [400, "messages.0: field required"],
        [404, "no such model wire-model"],
        [413, "request too large"],
        [422, "unprocessable thing"],
      ] as const) {
        s.server.reset();
        s.server.script({ error: { status, message } }, { text: "must not be asked" });
        const r = await s.inst.run(["run", "-a", "coder", "-p", "x"]);
        expect(r.code).toBe(1);
        expect(s.server.requests).toHaveLength(1);
        expect(r.stderr).not.toContain("retrying");
        expect(r.stderr).toContain(`HTTP ${status}: ${message}`);
        expect(r.stderr.trimEnd().split("\n").at(-1)).toStartWith("rienda: ");
      }
    });
  }
});

describe("presets (contract §2)", () => {
  let proxy: Server | undefined;
  let inst: Instance | undefined;
  afterEach(async () => {
    inst?.dispose();
    inst = undefined;
    await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
    proxy = undefined;
  });

  /**
   * The URL a run of `ref` tries first, read from its first retry: an HTTPS
   * proxy on 127.0.0.1 refuses every tunnel, so no request leaves this
   * machine and each attempt fails as a network error naming the URL.
   */
  async function firstFailure(home: Instance, ref: string, proxyUrl: string): Promise<string> {
    const run = home.start(["run", "-a", "agent", "-m", ref, "-p", "x", "--json"], {
      env: { HTTPS_PROXY: proxyUrl, https_proxy: proxyUrl, HTTP_PROXY: proxyUrl, http_proxy: proxyUrl },
    });
    await waitFor(() => /"type":"(retry|run_end)"/.test(run.stdout()), 20_000, "a retry");
    run.kill("SIGTERM");
    const r = await run.done;
    const event = jsonEvents(r.stdout).find((e) => e.type === "retry" || e.type === "error")!;
    return String(event.message);
  }

  test("anthropic, openai, openrouter and deepseek supply their protocol's endpoint on their base URL", async () => {
    const tunnels: string[] = [];
    proxy = createServer((_req, res) => res.writeHead(502).end());
    proxy.on("connect", (req, socket) => {
      tunnels.push(String(req.url));
      socket.end("HTTP/1.1 502 Bad Gateway\r\n\r\n");
    });
    await new Promise<void>((resolve) => proxy!.listen(0, "127.0.0.1", resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    inst = new Instance();
    inst.config(
      ["anthropic", "openai", "openrouter", "deepseek"]
        .map((preset) => `  ${preset}:\n    preset: ${preset}\n    api_key: k\n    models: { m: {} }\n`)
        .join("")
        .replace(/^/, "providers:\n"),
    );
    inst.agent("agent", "---\ndescription: d\nmodel: anthropic/m\n---\nb\n");
    const expected: [string, string][] = [
      ["anthropic/m", "https://api.anthropic.com/v1/messages"],
      ["openai/m", "https://api.openai.com/v1/responses"],
      ["openrouter/m", "https://openrouter.ai/api/v1/chat/completions"],
      ["deepseek/m", "https://api.deepseek.com/chat/completions"],
    ];
    for (const [ref, url] of expected) {
      expect(await firstFailure(inst, ref, proxyUrl)).toContain(`cannot reach ${url}:`);
    }
    expect(tunnels).toEqual([
      "api.anthropic.com:443",
      "api.openai.com:443",
      "openrouter.ai:443",
      "api.deepseek.com:443",
    ]);
  }, 60_000);

  test("ollama and lmstudio: chat completions on 127.0.0.1:11434/v1 and 127.0.0.1:1234/v1; an explicit base_url overrides the preset's", async () => {
    s = await scenario();
    s.inst.config(
      `providers:\n  ollama:\n    preset: ollama\n    models: { m: {} }\n  lmstudio:\n    preset: lmstudio\n    models: { m: {} }\n` +
        `  moved:\n    preset: ollama\n    base_url: ${s.server.url}/elsewhere\n    models: { m: {} }\n  claude:\n    preset: anthropic\n    base_url: ${s.server.url}/anthropic\n    api_key: k\n    models: { m: {} }\n`,
    );
    s.inst.agent("agent", "---\ndescription: d\nmodel: ollama/m\n---\nb\n");
    // Loopback is never proxied; whatever answers there (nothing, normally) is named by URL.
    for (const [ref, base] of [
      ["ollama/m", "http://127.0.0.1:11434/v1"],
      ["lmstudio/m", "http://127.0.0.1:1234/v1"],
    ]) {
      const run = s.inst.start(["run", "-a", "agent", "-m", ref!, "-p", "x", "--json"]);
      await waitFor(() => /"type":"(retry|run_end)"/.test(run.stdout()), 20_000, "a retry");
      run.kill("SIGTERM");
      const r = await run.done;
      expect(r.stdout).toContain(base!);
      if (r.stdout.includes("cannot reach")) expect(r.stdout).toContain(`cannot reach ${base}/chat/completions`);
    }
    s.server.script({ text: "moved" }, { text: "claude" });
    expect((await s.inst.run(["run", "-a", "agent", "-m", "moved/m", "-p", "x"])).stdout).toBe("moved\n");
    expect((await s.inst.run(["run", "-a", "agent", "-m", "claude/m", "-p", "x"])).stdout).toBe("claude\n");
    expect(s.server.requests.map((r) => r.path)).toEqual(["/elsewhere/chat/completions", "/anthropic/v1/messages"]);
    expect(s.server.requests[1]!.headers["x-api-key"]).toBe("k");
  }, 60_000);
});
