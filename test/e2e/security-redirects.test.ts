/**
 * Issue 39, item 1: a provider that answers with a redirect to another
 * origin never gets Rienda to send the key, a configured header or the
 * conversation there (docs/security.md). The attacker's server is a second
 * one on 127.0.0.2 that records whatever reaches it; a redirect within the
 * provider's own origin is still followed.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Instance } from "../support/instance.ts";
import { PROTOCOLS, scenario, type Scenario } from "../support/scenario.ts";

/** What reached the attacker's server. */
interface Stolen {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A server on 127.0.0.2 that records every request and answers 200 with an empty event stream. */
async function startThief(): Promise<{ url: string; got: Stolen[]; close(): Promise<void> }> {
  const got: Stolen[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      got.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.2", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.2:${port}`,
    got,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let s: Scenario | undefined;
let thief: Awaited<ReturnType<typeof startThief>> | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
  await thief?.close();
  thief = undefined;
});

describe("redirects of model requests (issue 39, item 1)", () => {
  for (const protocol of PROTOCOLS) {
    for (const status of [307, 302]) {
      test(`${protocol}: a ${status} to another origin is refused, naming where it pointed and base_url; nothing reaches it`, async () => {
        thief = await startThief();
        const target = `${thief.url}/v1/${protocol === "anthropic" ? "messages" : protocol === "openai_responses" ? "responses" : "chat/completions"}`;
        s = await scenario({ protocol, providerExtra: '    headers: { X-Team-Token: "${TEAM_TOKEN}" }' });
        // The key comes from a variable too, as a user writes it.
        s.inst.config(
          readFileSync(s.inst.riendaPath("config.yaml"), "utf8").replace(
            "api_key: test-key",
            'api_key: "${PROVIDER_KEY}"',
          ),
        );
        s.server.script({ error: { status, headers: { location: target }, body: "" } });
        const r = await s.inst.run(["run", "-a", "coder", "-p", "the secret plan: CONVERSATION-MARK"], {
          env: { PROVIDER_KEY: "sk-KEY-SECRET-123456", TEAM_TOKEN: "team-SECRET-654321" },
        });
        expect(thief.got).toEqual([]);
        expect(r.code).toBe(1);
        expect(s.server.requests.length).toBe(1);
        const failure = r.stderr.split("\n").find((line) => line.startsWith("rienda: ")) ?? "";
        expect(failure).toContain(`answered ${status} redirecting to ${target}`);
        expect(failure).toContain(status === 307 ? "another origin: not followed" : "another origin");
        expect(failure).toContain(`set providers.p.base_url to ${thief.url}/v1`);
        expect(r.stderr).not.toContain("retrying");
        expect(r.stdout + r.stderr).not.toContain("SECRET");
      });
    }
  }

  test("a 307 within the provider's origin is followed, with the key and the body", async () => {
    s = await scenario({ protocol: "anthropic" });
    s.server.script(
      { error: { status: 307, headers: { location: `${s.server.url}/moved/v1/messages` }, body: "" } },
      { text: "answered after the move" },
    );
    const r = await s.inst.run(["run", "-a", "coder", "-p", "hello"]);
    expect(r.stderr).not.toContain("rienda:");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("answered after the move");
    expect(s.server.requests.map((q) => q.path)).toEqual(["/v1/messages", "/moved/v1/messages"]);
    expect(s.server.requests[1]!.headers["x-api-key"]).toBe("test-key");
    expect(JSON.stringify(s.server.requests[1]!.body)).toContain("hello");
  });

  test("--json reports the refused redirect as the run's error, without the key", async () => {
    thief = await startThief();
    s = await scenario();
    s.server.script({ error: { status: 308, headers: { location: `${thief.url}/v1/chat/completions` }, body: "" } });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "hello", "--json"]);
    expect(thief.got).toEqual([]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`redirecting to ${thief.url}/v1/chat/completions, another origin`);
    expect(r.stdout + r.stderr).not.toContain("test-key");
  });

  test("an MCP server over HTTP that redirects to another origin gets no token sent there (the SDK's same-origin policy)", async () => {
    thief = await startThief();
    const redirector = createServer((_req, res) => {
      res.writeHead(307, { location: `${thief!.url}/mcp` });
      res.end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, "127.0.0.1", resolve));
    const inst = new Instance();
    try {
      const { port } = redirector.address() as AddressInfo;
      inst.config(
        `providers:\n  p: { protocol: openai_chat_completions, base_url: "http://127.0.0.1:9/v1", models: { m: {} } }\nmcp_servers:\n  search: { url: "http://127.0.0.1:${port}/mcp", headers: { Authorization: "Bearer \${MCP_TOKEN}" } }\n`,
      );
      const r = await inst.run(["tool", "list"], { env: { MCP_TOKEN: "mcp-SECRET-778899" } });
      expect(thief.got).toEqual([]);
      expect(r.stdout + r.stderr).toContain(`Redirect to ${thief.url}/mcp not followed`);
      expect(r.stdout + r.stderr).not.toContain("mcp-SECRET");
    } finally {
      inst.dispose();
      await new Promise<void>((resolve) => redirector.close(() => resolve()));
    }
  });
});
