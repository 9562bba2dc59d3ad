/**
 * Provider failures as the user reads them (issue 10, "Honest endings"):
 * they name the provider and the config key to fix, never the runtime's
 * own wording, and a local server that is not running is reported after
 * one quick retry (issue 25: within about a second, with how to start it).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { Instance } from "../support/instance.ts";
import { startProviderServer } from "../support/provider-server.ts";
import { configFor, scenario, type Scenario } from "../support/scenario.ts";

let s: Scenario | undefined;
let inst: Instance | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
  inst?.dispose();
  inst = undefined;
});

async function closedPort(): Promise<string> {
  const server = await startProviderServer();
  const port = new URL(server.url).port;
  await server.close();
  return port;
}

describe("provider errors", () => {
  test("nothing listening on a local server: says so and how to start it after one quick retry", async () => {
    const port = await closedPort();
    inst = new Instance();
    inst.config(
      `providers:\n  ollama:\n    preset: ollama\n    base_url: http://127.0.0.1:${port}/v1\n    models:\n      qwen: { id: "qwen3:8b" }\n`,
    );
    inst.agent("coder", "---\ndescription: A test agent.\nmodel: ollama/qwen\n---\nBe brief.\n");
    const r = await inst.run(["run", "-a", "coder", "-p", "hello"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    const retries = r.stderr.split("\n").filter((line) => line.includes("retrying"));
    expect(retries.length).toBe(1);
    expect(retries[0]).toContain("retrying in 0.");
    const failure = r.stderr.split("\n").find((line) => line.startsWith("rienda: ")) ?? "";
    expect(failure).toContain("(gave up after 2 attempts)");
    expect(failure).toContain("Start the model server");
    expect(failure).toContain(`provider "ollama" (http://127.0.0.1:${port}/v1)`);
    expect(failure).toContain(`connection refused: nothing is listening on 127.0.0.1:${port}`);
    expect(failure).toContain("set providers.ollama.base_url to where it listens");
    expect(r.stderr).not.toContain("Is the computer able to access the url");
    expect(r.stderr).not.toContain("verbose: true");
  });

  test("credentials written into base_url never appear in messages, plain or --json", async () => {
    const port = await closedPort();
    inst = new Instance();
    inst.config(
      `providers:\n  p:\n    protocol: openai_chat_completions\n    base_url: http://ana:pw-SECRET-1@127.0.0.1:${port}/v1?key=SECRET-2\n    models: { m: {} }\n`,
    );
    inst.agent("coder", "---\ndescription: A test agent.\nmodel: p/m\n---\nBe brief.\n");
    for (const json of [false, true]) {
      const r = await inst.run(["run", "-a", "coder", "-p", "hello", ...(json ? ["--json"] : [])]);
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).not.toContain("SECRET");
      expect(r.stdout + r.stderr).toContain(
        `(http://ana:***@127.0.0.1:${port}/v1?key=***): cannot reach http://ana:***@127.0.0.1:${port}/v1/chat/completions?key=***`,
      );
    }
  });

  test("a server that echoes the key or a header value it refused never gets them printed", async () => {
    s = await scenario({ providerExtra: '    headers: { X-Gateway-Token: "gw-SECRET-12345" }' });
    s.server.script(
      {
        error: {
          status: 503,
          message: "upstream refused Authorization: Bearer test-key (gateway token gw-SECRET-12345)",
        },
      },
      { error: { status: 401, message: "Incorrect API key provided: test-key" } },
    );
    for (const json of [false, true]) {
      if (json) s.server.script({ error: { status: 401, message: "Incorrect API key provided: test-key" } });
      const r = await s.inst.run(["run", "-a", "coder", "-p", "hello", ...(json ? ["--json"] : [])]);
      expect(r.code).toBe(1);
      const out = r.stdout + r.stderr;
      expect(out).not.toContain("test-key");
      expect(out).not.toContain("SECRET");
      expect(out).toContain("Incorrect API key provided: ***");
      if (!json) expect(r.stderr).toContain("upstream refused Authorization: Bearer *** (gateway token ***)");
    }
  });

  test("a 200 body holding no event at all says what the server said, at once", async () => {
    s = await scenario();
    const sse = { "content-type": "text/event-stream" };
    s.server.script(
      {
        error: {
          status: 200,
          body: '{"error":{"message":"model \'wire-model\' not found, try pulling it first"}}',
          headers: sse,
        },
      },
      { error: { status: 200, body: "404 page not found", headers: { "content-type": "text/plain" } } },
    );
    const json = await s.inst.run(["run", "-a", "coder", "-p", "hello"]);
    expect(json.code).toBe(1);
    expect(json.stderr).not.toContain("retrying");
    expect(json.stderr).toContain("model 'wire-model' not found, try pulling it first");
    const text = await s.inst.run(["run", "-a", "coder", "-p", "hello"]);
    expect(text.code).toBe(1);
    expect(text.stderr).not.toContain("retrying");
    expect(text.stderr).toContain(
      `${s.server.url}/v1/chat/completions answered with something that is not an event stream: "404 page not found". Check providers.p.base_url`,
    );
    expect(s.server.requests).toHaveLength(2);
  });

  test("a query in base_url stays at the end of the request URL", async () => {
    s = await scenario();
    s.inst.config(
      readFileSync(s.inst.riendaPath("config.yaml"), "utf8").replace(
        `${s.server.url}/v1`,
        `${s.server.url}/v1?api-version=preview`,
      ),
    );
    s.server.script({ text: "fine" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "hello"]);
    expect(r.stdout).toBe("fine\n");
    expect(s.server.requests[0]!.path).toBe("/v1/chat/completions");
    expect(s.server.requests[0]!.query).toBe("?api-version=preview");
  });

  test("a server on this machine is reached directly, whatever HTTP_PROXY says", async () => {
    const deadProxy = `http://127.0.0.1:${await closedPort()}`;
    s = await scenario();
    s.server.script({ text: "direct" }, { text: "direct again" });
    for (const name of ["HTTP_PROXY", "http_proxy"]) {
      const r = await s.inst.run(["run", "-a", "coder", "-p", "hello"], { env: { [name]: deadProxy } });
      expect(r.stderr).not.toContain("retrying");
      expect(r.code).toBe(0);
    }
    expect(s.server.requests).toHaveLength(2);
  });

  test("a rejected key names where it comes from: ${VAR} set, ${VAR} empty, written in the file, or no api_key", async () => {
    const cases: [string, Record<string, string>, string][] = [
      ["${ACME_KEY}", { ACME_KEY: "sk-wrong-123456" }, "Check providers.p.api_key: its key comes from ${ACME_KEY}"],
      [
        "${ACME_KEY:-}",
        { ACME_KEY: "" },
        "providers.p.api_key comes from ${ACME_KEY} (empty): set that variable to the provider's key",
      ],
      ["sk-literal-123456", {}, "Check providers.p.api_key: the key is written in config.yaml"],
    ];
    for (const [written, env, hint] of cases) {
      s = await scenario();
      s.inst.config(configFor(s.server.url).replace("api_key: test-key", `api_key: "${written}"`));
      s.server.script({ error: { status: 403, message: "forbidden" } });
      const r = await s.inst.run(["run", "-a", "coder", "-p", "hello"], { env });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`rienda: provider "p" (${s.server.url}/v1): HTTP 403: forbidden. ${hint}`);
      expect(r.stderr).not.toContain("sk-wrong-123456");
      await s.dispose();
    }
    s = await scenario();
    s.inst.config(configFor(s.server.url).replace("    api_key: test-key\n", ""));
    s.server.script({ error: { status: 401, message: "no key" } });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "hello"]);
    expect(r.stderr).toContain("HTTP 401: no key. providers.p.api_key is not set in config.yaml, so no key was sent");
  });

  test("config.yaml's timeout and retries: a silent first byte fails naming the key, retried as set", async () => {
    s = await scenario({ providerExtra: "    timeout: 1\n    retries: 1" });
    s.server.script({ text: "late", chunkDelayMs: 5000 }, { text: "late again", chunkDelayMs: 5000 });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "hello"]);
    expect(r.code).toBe(1);
    expect(s.server.requests).toHaveLength(2);
    expect(r.stderr).toContain("retrying in");
    expect(r.stderr).toContain(
      "within 1s (first-byte timeout, providers.p.timeout); the server may still be reading the prompt, and a retry sends it again",
    );
    expect(r.stderr).toContain("(gave up after 2 attempts)");
  });

  test("a rejected key names the provider and providers.<name>.api_key", async () => {
    s = await scenario();
    s.server.script({
      error: {
        status: 401,
        message: "Incorrect API key provided",
        type: "invalid_request_error",
        code: "invalid_api_key",
      },
    });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "hello"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `rienda: provider "p" (${s.server.url}/v1): HTTP 401: Incorrect API key provided. Check providers.p.api_key: the key is written in config.yaml`,
    );
    expect(s.server.requests).toHaveLength(1);
  });

  test("a web page answering 200 (a proxy's login, an app on that port) fails at once naming base_url, without retries", async () => {
    s = await scenario();
    const page =
      "<!doctype html><html><head><title>Sign in - Corporate Proxy</title></head><body><form>...</form></body></html>";
    s.server.script({ error: { status: 200, body: page, headers: { "content-type": "text/html; charset=utf-8" } } });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "hello"]);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain("retrying");
    expect(r.stderr).toContain(
      `rienda: provider "p" (${s.server.url}/v1): ${s.server.url}/v1/chat/completions answered with a web page instead of an event stream ("Sign in - Corporate Proxy"). Check providers.p.base_url: it must be the address of the API (often ending in /v1)\n`,
    );
    expect(s.server.requests).toHaveLength(1);
  });
});
