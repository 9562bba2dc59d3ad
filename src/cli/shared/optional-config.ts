/** config.yaml for the commands that can do without one (`tool`, `mcp serve`). */
import { existsSync } from "node:fs";
import { loadConfig, locateConfig, type LoadedConfig } from "../../config/index.ts";

/** config.yaml when there is one (a missing file in ~/.rienda means: no MCP servers). Throws for a broken one. */
export function readOptionalConfig(home: string, flag?: string): LoadedConfig | undefined {
  const location = locateConfig({ env: process.env, home, flag });
  if (location.source === "home" && !existsSync(location.path)) return undefined;
  return loadConfig({ env: process.env, home, flag });
}
