/** What guards `rienda mcp serve --http`: the bearer check, the token's sources, the session limits. */
import { afterEach, describe, expect, test } from "bun:test";
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bearerChecker } from "../../src/mcp/bearer-auth.ts";
import { HttpSessions } from "../../src/mcp/http-sessions.ts";
import { parseIdleTimeout, parseMaxSessions, serveToken } from "../../src/mcp/index.ts";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});
const scratch = (): string => (dir = mkdtempSync(join(tmpdir(), "rienda-token-")));

describe("the bearer check", () => {
  const check = bearerChecker("s3cret-token-s3cret-token-s3cret-token");
  test("the token after Bearer (any case, spaces around) passes; another token, a second word or another scheme does not", () => {
    expect(check("Bearer s3cret-token-s3cret-token-s3cret-token")).toBe("ok");
    expect(check("bearer   s3cret-token-s3cret-token-s3cret-token ")).toBe("ok");
    expect(check("Bearer s3cret-token-s3cret-token-s3cret-tokeN")).toBe("invalid");
    expect(check("Bearer s3cret-token-s3cret-token-s3cret-token x")).toBe("invalid");
    expect(check("Bearer ")).toBe("invalid");
    expect(check("Bearer")).toBe("invalid");
    expect(check("Basic czNjcmV0")).toBe("missing");
    expect(check(undefined)).toBe("missing");
    expect(check("")).toBe("missing");
    expect(check(["Bearer s3cret-token-s3cret-token-s3cret-token", "Bearer x"])).toBe("invalid");
  });
});

describe("the token", () => {
  test("a new file: 43 base64url characters, mode 0600, in a directory made 0700; the next start reads the same", () => {
    const file = join(scratch(), "new", "mcp-token");
    const made = serveToken({ variable: undefined, file, fileGiven: false });
    expect(made.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(made.source).toEqual({ kind: "file", path: file, created: true });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir!, "new")).mode & 0o777).toBe(0o700);
    expect(readFileSync(file, "utf8")).toBe(`${made.value}\n`);
    expect(serveToken({ variable: undefined, file, fileGiven: false })).toEqual({
      value: made.value,
      source: { kind: "file", path: file, created: false },
    });
    expect(serveToken({ variable: undefined, file: join(dir!, "other"), fileGiven: true }).value).not.toBe(made.value);
  });

  test("a symlink at the path is never written through, and a file others can read or holding no token is refused", () => {
    const target = join(scratch(), "elsewhere");
    const link = join(dir!, "mcp-token");
    symlinkSync(target, link);
    expect(() => serveToken({ variable: undefined, file: link, fileGiven: true })).toThrow(
      `mcp serve: cannot read the token file ${link}`,
    );
    expect(existsSync(target)).toBe(false);
    const open = join(dir!, "open");
    writeFileSync(open, "A".repeat(43));
    chmodSync(open, 0o640);
    expect(() => serveToken({ variable: undefined, file: open, fileGiven: true })).toThrow(
      `the token file ${open} can be read by other users (mode 0640)`,
    );
    const empty = join(dir!, "empty");
    writeFileSync(empty, "", { mode: 0o600 });
    expect(() => serveToken({ variable: undefined, file: empty, fileGiven: true })).toThrow(
      `the token file ${empty} holds no usable token (empty): remove it and a new one is made`,
    );
  });

  test("RIENDA_MCP_TOKEN: used as it is, no file made; empty, short, not header-safe, or given with --token-file: refused", () => {
    const file = join(scratch(), "mcp-token");
    const token = "0123456789abcdef".repeat(2);
    expect(serveToken({ variable: token, file, fileGiven: false })).toEqual({
      value: token,
      source: { kind: "variable", name: "RIENDA_MCP_TOKEN" },
    });
    expect(existsSync(file)).toBe(false);
    expect(() => serveToken({ variable: "", file, fileGiven: false })).toThrow("RIENDA_MCP_TOKEN is empty");
    expect(() => serveToken({ variable: token.slice(1), file, fileGiven: false })).toThrow(
      "RIENDA_MCP_TOKEN is too short: 31 characters, at least 32",
    );
    expect(() => serveToken({ variable: `${token} x`, file, fileGiven: false })).toThrow(
      "RIENDA_MCP_TOKEN is not a token",
    );
    expect(() => serveToken({ variable: token, file, fileGiven: true })).toThrow(
      "RIENDA_MCP_TOKEN is set and --token-file is given",
    );
  });
});

describe("the session limits", () => {
  test("--idle-timeout takes a number with its unit, 100ms to 24h; --max-sessions 1 to 10000", () => {
    expect(parseIdleTimeout("30m")).toBe(1_800_000);
    expect(parseIdleTimeout("1.5s")).toBe(1500);
    expect(parseIdleTimeout("24h")).toBe(86_400_000);
    expect(parseIdleTimeout("100ms")).toBe(100);
    // The same durations as --timeout: combined units, a plain number of seconds.
    expect(parseIdleTimeout("1h30m")).toBe(5_400_000);
    expect(parseIdleTimeout("90")).toBe(90_000);
    for (const bad of ["m", "-1s", "99ms", "25h", "1d", " ", "0"])
      expect(() => parseIdleTimeout(bad)).toThrow("mcp serve: --idle-timeout");
    expect(parseMaxSessions("32")).toBe(32);
    for (const bad of ["0", "10001", "1.5", "x", "-3"])
      expect(() => parseMaxSessions(bad)).toThrow("mcp serve: --max-sessions wants a whole number from 1 to 10000");
  });

  test("places are reserved before a session has its id, and given back when none came of it", () => {
    const sessions = new HttpSessions<string>({ maxSessions: 2, idleMs: 60_000 }, () => undefined);
    expect(sessions.reserve()).toBe(true);
    expect(sessions.reserve()).toBe(true);
    expect(sessions.reserve()).toBe(false);
    // One initialize failed, the other became session a: one place left.
    sessions.unreserve();
    sessions.add("a", "A");
    expect(sessions.size).toBe(1);
    expect(sessions.reserve()).toBe(true);
    expect(sessions.reserve()).toBe(false);
    sessions.delete("a");
    expect(sessions.get("a")).toBeUndefined();
    expect(sessions.reserve()).toBe(true);
    sessions.drain();
  });
});
