/**
 * Discovery of provider modules (go-current.md §2): the folders of the
 * providers folder that hold an index.js, and the built-ins a user module
 * does not replace. Listing stats files and evaluates nothing.
 */
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { isFile } from "../values.ts";
import { BUILT_IN_NAMES } from "./built-in-files.ts";
import type { ListOptions, ModuleEntry, ModuleListing, UserModuleEntry } from "./types.ts";

/** `RIENDA_PROVIDERS` (trimmed, relative to `cwd`), else `~/.rienda/providers`. */
export function providersFolder(options: ListOptions): string {
  const written = options.env.RIENDA_PROVIDERS?.trim();
  if (written) return resolve(options.cwd ?? process.cwd(), written);
  return join(options.home, ".rienda", "providers");
}

/** Every provider module, sorted by name: user modules, and each built-in whose name no user module takes. */
export function listProviderModules(options: ListOptions): ModuleListing {
  const folder = providersFolder(options);
  const problems: string[] = [];
  const users = userModules(folder, problems);
  const taken = new Set(users.map((entry) => entry.name));
  const builtIns: ModuleEntry[] = BUILT_IN_NAMES.filter((name) => !taken.has(name)).map((name) => ({
    origin: "built-in",
    name,
    path: `built-in:${name}`,
    folder: join(folder, name),
  }));
  const modules = [...users, ...builtIns].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { folder, modules, problems };
}

/** The folders of `folder` holding an index.js file; a folder whose name starts with "." is skipped. */
function userModules(folder: string, problems: string[]): UserModuleEntry[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // No providers folder: no user modules (a new installation, or a config.yaml-only one).
    if (code !== "ENOENT")
      problems.push(`providers folder ${folder}: ${code === "ENOTDIR" ? "is not a folder" : (error as Error).message}`);
    return [];
  }
  const modules: UserModuleEntry[] = [];
  for (const name of names) {
    if (name.startsWith(".")) continue;
    const own = join(folder, name);
    const path = join(own, "index.js");
    // statSync follows links: a linked module folder or index.js counts like a real one.
    if (isFolder(own) && isFile(path)) modules.push({ origin: "module", name, path, folder: own });
  }
  return modules;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
