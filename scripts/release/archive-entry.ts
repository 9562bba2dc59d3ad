/** One file or directory of a release archive, as the tar and zip writers take it. */
export interface ArchiveEntry {
  /** Path inside the archive, "/"-separated; a directory's ends with "/". */
  path: string;
  /** Permission bits: 0o755 for directories and executables, 0o644 otherwise. */
  mode: number;
  /** File content; empty for a directory. */
  data: Uint8Array;
}

export function isDirectory(entry: ArchiveEntry): boolean {
  return entry.path.endsWith("/");
}
