/** Writes the starter files under ~/.rienda, never replacing anything that exists. */
import { lstatSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { RiendaError } from "../../errors.ts";
import type { StarterFile } from "./starter-files.ts";

/** What happened to one starter file. */
export type FileOutcome =
  | { path: string; status: "created" }
  | { path: string; status: "kept" }
  | { path: string; status: "failed"; reason: string };

/** The result of installing the starter files into one ~/.rienda. */
export interface InstallReport {
  /** Absolute path of ~/.rienda. */
  root: string;
  /** Whether ~/.rienda itself was created (with mode 0700). */
  createdRoot: boolean;
  /** One outcome per file, absolute paths, in the order given. */
  files: FileOutcome[];
}

/**
 * Writes each file under `<home>/.rienda` unless something already exists at
 * its path. Creation is exclusive (`wx`), so an existing file, directory or
 * symbolic link (even a dangling one) is never replaced, and there is no
 * window between checking and writing. One file failing does not stop the
 * others; the caller reports every outcome.
 */
export function installStarter(home: string, files: readonly StarterFile[]): InstallReport {
  const root = join(home, ".rienda");
  const createdRoot = ensureRoot(root);
  const outcomes = files.map((file) => installOne(join(root, file.path), file));
  return { root, createdRoot, files: outcomes };
}

function ensureRoot(root: string): boolean {
  const existing = statOrUndefined(root);
  if (existing) {
    if (!existing.isDirectory())
      throw new RiendaError("config", `${root} exists but is not a directory; move it away and run rienda init again`);
    return false;
  }
  try {
    // The directory holds config.yaml and the sessions: private to its owner.
    mkdirSync(root, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new RiendaError("config", `cannot create ${root}: ${reasonOf(error)}`);
  }
  return true;
}

function installOne(path: string, file: StarterFile): FileOutcome {
  try {
    // Private like ~/.rienda, whatever the umask: a world-writable tools/ would let anyone run code as you.
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(path, file.content, { flag: "wx", mode: file.mode });
    return { path, status: "created" };
  } catch (error) {
    if (codeOf(error) === "EEXIST" && lstatOrUndefined(path)) return { path, status: "kept" };
    return { path, status: "failed", reason: reasonOf(error) };
  }
}

function statOrUndefined(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** The system's reason without the path Node repeats in its message. */
function reasonOf(error: unknown): string {
  const code = codeOf(error);
  const reasons: Record<string, string> = {
    EACCES: "permission denied",
    EPERM: "operation not permitted",
    ENOTDIR: "a parent path is a file, not a directory",
    EEXIST: "a parent path is a file, not a directory",
    EROFS: "read-only file system",
    ENOSPC: "no space left on the device",
  };
  if (code && reasons[code]) return reasons[code]!;
  return error instanceof Error ? error.message : String(error);
}
