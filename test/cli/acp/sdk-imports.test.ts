/**
 * The ACP SDK is loaded only by `rienda acp` (docs/acp.md, "Protocol
 * version"): src/cli/acp/ alone names it, statically only as `import type`;
 * the command loads it with import(). The command itself is loaded lazily
 * (commands.ts), so no other command's chunks reach it.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const SRC = resolve(import.meta.dir, "../../../src");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
  });
}

test("only src/cli/acp/ names the ACP SDK, and only its command loads it, with import()", () => {
  const offenders: string[] = [];
  let dynamic = 0;
  for (const file of files(SRC)) {
    const text = readFileSync(file, "utf8");
    if (!text.includes("@agentclientprotocol/sdk")) continue;
    const rel = relative(SRC, file);
    if (!rel.startsWith("cli/acp/")) offenders.push(`${rel}: names the ACP SDK outside cli/acp/`);
    for (const match of text.matchAll(
      /^\s*(import|export)\s+(type\s+|\*\s+as\s+\w+\s+)?[^;]*?from\s+["']@agentclientprotocol\/sdk[^"']*["']/gm,
    )) {
      if (match[2]?.trim() !== "type") offenders.push(`${rel}: static import of the SDK`);
    }
    dynamic += [...text.matchAll(/import\(\s*["']@agentclientprotocol\/sdk["']\s*\)/g)].length;
  }
  expect(offenders).toEqual([]);
  expect(dynamic).toBe(1);
  expect(readFileSync(join(SRC, "cli/commands.ts"), "utf8")).toContain('acp: () => import("./acp/command.ts")');
});
