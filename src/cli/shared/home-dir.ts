/** Where `~` is for Rienda (HOME first). */
import { homedir } from "node:os";
import { resolve } from "node:path";

/** `~`: HOME locates it (contract.md §1), the system's idea of it otherwise; always absolute. */
export function homeDir(): string {
  return resolve(process.env.HOME || homedir());
}
