import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { credentialsPath, readCredentials, removeCredential, setCredential } from "../../src/credentials/index.ts";

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "rienda-cred-"));
  path = join(dir, "credentials.json");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("credentials.json (go-current.md §4)", () => {
  test("RIENDA_CREDENTIALS moves it", () => {
    expect(credentialsPath({ RIENDA_CREDENTIALS: "/k/c.json" }, "/h")).toBe("/k/c.json");
    expect(credentialsPath({}, "/h")).toBe("/h/.rienda/credentials.json");
  });

  test("written atomically, 0600, keys sorted, two-space indent, unknown fields kept", () => {
    writeFileSync(path, JSON.stringify({ zed: { api_key: "z", note: "keep me" }, other: 1 }), { mode: 0o644 });
    setCredential(path, "acme", "sk-1");
    expect(readFileSync(path, "utf8")).toBe(
      '{\n  "acme": {\n    "api_key": "sk-1"\n  },\n  "other": 1,\n  "zed": {\n    "api_key": "z",\n    "note": "keep me"\n  }\n}\n',
    );
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["credentials.json"]);
    setCredential(path, "zed", "z2");
    expect(JSON.parse(readFileSync(path, "utf8")).zed).toEqual({ api_key: "z2", note: "keep me" });
  });

  test("reading: a missing file has no keys; an entry that is not an object or an empty key is no key", () => {
    expect(readCredentials(path).providers()).toEqual([]);
    writeFileSync(path, JSON.stringify({ a: { api_key: "k" }, b: "flat", c: { api_key: "" }, d: { api_key: 5 } }));
    const keys = readCredentials(path);
    expect(keys.providers()).toEqual(["a"]);
    expect([keys.keyOf("a"), keys.keyOf("b"), keys.keyOf("c"), keys.keyOf("d"), keys.keyOf("toString")]).toEqual([
      "k",
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  test("removing: says whether there was an entry; the rest stays", () => {
    setCredential(path, "a", "1");
    setCredential(path, "b", "2");
    expect(removeCredential(path, "a")).toBe(true);
    expect(removeCredential(path, "a")).toBe(false);
    expect(readCredentials(path).providers()).toEqual(["b"]);
    writeFileSync(path, JSON.stringify({ c: { api_key: "k", region: "eu" } }));
    expect(removeCredential(path, "c")).toBe(true);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ c: { region: "eu" } });
  });

  test("a damaged file is an error naming it, and is never overwritten", () => {
    writeFileSync(path, "{not json");
    expect(() => readCredentials(path)).toThrow(`${path}: is not valid JSON`);
    expect(() => setCredential(path, "a", "1")).toThrow(path);
    expect(readFileSync(path, "utf8")).toBe("{not json");
    writeFileSync(path, "[1]");
    expect(() => readCredentials(path)).toThrow(`${path}: must be a JSON object of providers`);
  });
});
