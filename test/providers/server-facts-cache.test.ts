import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { keepFacts, keptFacts, SERVER_FACTS_TTL_MS } from "../../src/providers/server-facts-cache.ts";

const home = mkdtempSync(join(tmpdir(), "rienda-facts-"));
afterEach(() => rmSync(join(home, ".rienda"), { recursive: true, force: true }));

const URL = "http://127.0.0.1:8080/v1";
const FACTS = {
  window: { tokens: 8192, source: "llama.cpp's GET http://127.0.0.1:8080/props" },
  input: { modalities: ["text"], source: "GET …/models" },
};
const files = () => readdirSync(join(home, ".rienda", "cache"));

test("kept as a ctx.cache entry and read back while fresh, with when the server was asked", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  keepFacts(home, URL, "q", FACTS, now);
  const [name] = files();
  expect(name).toMatch(/^local-server-[0-9a-f]{16}\.json$/);
  const entry = JSON.parse(readFileSync(join(home, ".rienda", "cache", name!), "utf8"));
  expect(entry.expires_at).toBe("2026-01-01T00:10:00Z");
  expect(JSON.parse(entry.payload)).toMatchObject({ baseUrl: URL, wireId: "q", ...FACTS });
  expect(keptFacts(home, URL, "q", now + SERVER_FACTS_TTL_MS - 1)).toEqual({
    ...FACTS,
    askedAt: "2026-01-01T00:00:00.000Z",
  });
  expect(keptFacts(home, URL, "other", now)).toBeUndefined();
});

test("expired: read as none and removed", () => {
  const now = Date.now();
  keepFacts(home, URL, "q", FACTS, now);
  expect(keptFacts(home, URL, "q", now + SERVER_FACTS_TTL_MS)).toBeUndefined();
  expect(files()).toEqual([]);
});

test("a server that said nothing is not kept; a damaged entry reads as none", () => {
  keepFacts(home, URL, "q", {});
  expect(existsSync(join(home, ".rienda", "cache"))).toBe(false);
  keepFacts(home, URL, "q", FACTS);
  writeFileSync(join(home, ".rienda", "cache", files()[0]!), "{not json");
  expect(keptFacts(home, URL, "q")).toBeUndefined();
});
