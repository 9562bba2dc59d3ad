/** Which config.yaml to read: `--config` > `RIENDA_CONFIG` > `~/.rienda/config.yaml` (contract.md §1). */
import { isAbsolute, join, resolve } from "node:path";
import type { ConfigLocation, LoadConfigOptions } from "./types.ts";

/**
 * Picks the configuration path. An empty `--config` or `RIENDA_CONFIG` counts
 * as not given; a leading `~/` is expanded (a quoted value escapes the
 * shell's own expansion); relative paths resolve against `cwd`.
 */
export function locateConfig(options: LoadConfigOptions): ConfigLocation {
  const cwd = options.cwd ?? process.cwd();
  const flag = options.flag?.trim();
  if (flag) return { path: absolute(flag, cwd, options.home), source: "flag" };
  const fromEnv = options.env.RIENDA_CONFIG?.trim();
  if (fromEnv) return { path: absolute(fromEnv, cwd, options.home), source: "env" };
  return { path: join(options.home, ".rienda", "config.yaml"), source: "home" };
}

function absolute(path: string, cwd: string, home: string): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(cwd, path);
}
