/**
 * A refused key is told by its HTTP status (docs/providers.md, "Errors"):
 * a 401 or 403 names the key to check, whatever `type` its JSON body
 * carries (proxies and gateways answer `server_error` or `api_error`), and
 * is not retried.
 */
import { afterEach, expect, test } from "bun:test";
import { scenario, type Scenario } from "../support/scenario.ts";
import type { WireProtocol } from "../support/provider-server.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

const CASES: { status: number; type: string; protocol: WireProtocol }[] = [
  { status: 401, type: "server_error", protocol: "openai_chat_completions" },
  { status: 403, type: "api_error", protocol: "anthropic" },
  { status: 401, type: "api_error", protocol: "openai_responses" },
];

for (const { status, type, protocol } of CASES) {
  test(`HTTP ${status} with type ${type} (${protocol}): the key hint, one request`, async () => {
    s = await scenario({ protocol });
    s.server.script({ error: { status, type, message: "Unauthorized by the gateway" } });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "hello"]);
    expect(r.code).toBe(1);
    const url = protocol === "anthropic" ? s.server.url : `${s.server.url}/v1`;
    expect(r.stderr).toContain(
      `rienda: provider "p" (${url}): HTTP ${status}: Unauthorized by the gateway. Check providers.p.api_key: the key is written in config.yaml`,
    );
    expect(s.server.requests).toHaveLength(1);
  });
}
