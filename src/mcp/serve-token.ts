/**
 * The bearer token of `rienda mcp serve --http`: whoever holds it runs the
 * served tools with the user's rights, so it is as strong as a key and only
 * the user can read it. It comes from RIENDA_MCP_TOKEN (scripted client
 * setups) or from a token file, which is made on first use with 32 random
 * bytes (base64url) and mode 0600, and used again by later starts so that a
 * configured client keeps working across restarts. A file that others could
 * read, or that another user owns, is refused rather than trusted or fixed:
 * someone may have read it already.
 */
import { randomBytes } from "node:crypto";
import { closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { RiendaError } from "../errors.ts";

/** The variable a token may come from. */
export const TOKEN_VARIABLE = "RIENDA_MCP_TOKEN";

/** Shortest token accepted: 32 characters (a generated one has 43). */
const MIN_LENGTH = 32;

/** RFC 6750's b64token, what a Bearer token may be written with in a header. */
const TOKEN_SYNTAX = /^[A-Za-z0-9\-._~+/]+=*$/;

/** Where the token came from, for the line on stderr. */
export type TokenSource = { kind: "variable"; name: string } | { kind: "file"; path: string; created: boolean };

export interface ServeToken {
  value: string;
  source: TokenSource;
}

/**
 * The token: RIENDA_MCP_TOKEN when it is set (and then no file is read or
 * written), else the one in `file`, made there when the file does not exist.
 * `fileGiven` says whether `file` came from --token-file (both at once is a
 * usage error: which one the clients hold would be a guess).
 */
export function serveToken(options: { variable: string | undefined; file: string; fileGiven: boolean }): ServeToken {
  if (options.variable !== undefined) {
    if (options.fileGiven) {
      throw new RiendaError(
        "usage",
        `mcp serve: ${TOKEN_VARIABLE} is set and --token-file is given: give the token one way (unset ${TOKEN_VARIABLE}, or leave out --token-file)`,
      );
    }
    const problem = tokenProblem(options.variable);
    if (problem)
      throw new RiendaError(
        "usage",
        `mcp serve: ${TOKEN_VARIABLE} is ${problem} (make one with: openssl rand -hex 32)`,
      );
    return { value: options.variable, source: { kind: "variable", name: TOKEN_VARIABLE } };
  }
  const made = createTokenFile(options.file);
  if (made !== undefined) return { value: made, source: { kind: "file", path: options.file, created: true } };
  return { value: readTokenFile(options.file), source: { kind: "file", path: options.file, created: false } };
}

/** What is wrong with a token, or undefined. */
function tokenProblem(token: string): string | undefined {
  if (token === "") return "empty";
  if (!TOKEN_SYNTAX.test(token))
    return "not a token: letters, digits and -._~+/ only (what an Authorization header may hold)";
  if (token.length < MIN_LENGTH) return `too short: ${token.length} characters, at least ${MIN_LENGTH}`;
  return undefined;
}

/** Writes a new token to `path` unless the file exists; the new token, or undefined when it existed. */
function createTokenFile(path: string): string | undefined {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  let fd: number;
  try {
    // O_EXCL: never follows a symlink planted at the path, never takes over a file someone else made.
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return undefined;
    throw new RiendaError("usage", `mcp serve: cannot write the token file ${path}: ${(error as Error).message}`);
  }
  const token = randomBytes(32).toString("base64url");
  try {
    writeSync(fd, `${token}\n`);
  } finally {
    closeSync(fd);
  }
  return token;
}

/** The token of an existing file, which must be the user's own and readable by nobody else. */
function readTokenFile(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY);
  } catch (error) {
    throw new RiendaError("usage", `mcp serve: cannot read the token file ${path}: ${(error as Error).message}`);
  }
  try {
    // The checks look at the file opened, not at the path, which may have changed since.
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new RiendaError("usage", `mcp serve: the token file ${path} is not a file`);
    // Windows has no owner ids or mode bits here: the user's profile is private by its ACLs.
    if (process.platform !== "win32") {
      if (typeof process.getuid === "function" && stat.uid !== process.getuid()) {
        throw new RiendaError(
          "usage",
          `mcp serve: the token file ${path} belongs to another user (uid ${stat.uid}): a token someone else wrote is not yours; remove it or give --token-file another path`,
        );
      }
      if ((stat.mode & 0o077) !== 0) {
        const mode = (stat.mode & 0o777).toString(8).padStart(4, "0");
        throw new RiendaError(
          "usage",
          `mcp serve: the token file ${path} can be read by other users (mode ${mode}): they may have the token; remove the file (a new token is made at the next start) or, if nobody else uses this machine, chmod 600 it`,
        );
      }
    }
    const token = readFileSync(fd, "utf8").trim();
    const problem = tokenProblem(token);
    if (problem)
      throw new RiendaError(
        "usage",
        `mcp serve: the token file ${path} holds no usable token (${problem}): remove it and a new one is made`,
      );
    return token;
  } finally {
    closeSync(fd);
  }
}
