/**
 * Issue 39, item 5: a secret in base_url's query string (`?key=…`) or user
 * info is hidden wherever provider text is shown, not only in the URL
 * prefix: a provider's error body, an in-stream error, `--json`, the
 * session file.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { scenario, type Scenario } from "../support/scenario.ts";
import { sessionFile, sessionIdFrom } from "../support/session-reader.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

/** A scenario whose base_url carries `?key=${QUERY_KEY}`. */
async function keyInUrl(): Promise<Scenario> {
  const current = await scenario();
  const config = readFileSync(current.inst.riendaPath("config.yaml"), "utf8").replace(
    /base_url: (\S+)/,
    'base_url: "$1?key=${QUERY_KEY}"',
  );
  current.inst.config(config);
  return current;
}

const ENV = { QUERY_KEY: "SECRET-QUERY-123456" };

describe("secrets of base_url in provider text (issue 39, item 5)", () => {
  for (const json of [false, true]) {
    test(`an error body that echoes the URL shows *** for the key${json ? " (--json)" : ""}, and the session file holds no key`, async () => {
      s = await keyInUrl();
      s.server.script({
        error: {
          status: 400,
          message: "bad request to /v1/chat/completions?key=SECRET-QUERY-123456 (key SECRET-QUERY-123456 unknown)",
        },
      });
      const r = await s.inst.run(["run", "-a", "coder", "-p", "go", ...(json ? ["--json"] : [])], { env: ENV });
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).not.toContain("SECRET");
      expect(r.stdout + r.stderr).toContain("bad request to /v1/chat/completions?key=*** (key *** unknown)");
      expect(s.server.requests[0]!.query).toBe("?key=SECRET-QUERY-123456");
      const id = json
        ? (JSON.parse(r.stdout.split("\n")[0]!) as { sessionId: string }).sessionId
        : sessionIdFrom(r.stderr);
      expect(readFileSync(sessionFile(s.inst.home, id), "utf8")).not.toContain("SECRET");
    });
  }

  test("an in-stream error quoting the key, URL-encoded or not, is hidden too", async () => {
    s = await keyInUrl();
    s.server.script({
      text: "partial",
      streamError: {
        type: "invalid_request_error",
        message: "upstream saw key=SECRET%2FQUERY%20123456 (SECRET/QUERY 123456)",
      },
    });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go"], { env: { QUERY_KEY: "SECRET/QUERY 123456" } });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).not.toContain("SECRET");
    expect(r.stderr).toContain("upstream saw key=*** (***)");
  });
});
