import { describe, expect, test } from "bun:test";
import { defineCommand } from "../../src/cli/shared/command.ts";
import { renderUsage, usageInColor } from "../../src/cli/usage.ts";
import { VERSION } from "../../src/version.ts";

const run = defineCommand({
  meta: { name: "run", description: "Invoke one tool." },
  args: {
    name: { type: "positional", required: false, description: "The tool" },
    secret: { type: "positional", required: false, hidden: true, description: "refused" },
    "max-turns": { type: "string", description: "Stop after this many" },
    http: { type: "string", valueHint: "HOST:PORT", description: "Serve" },
    workdir: { type: "string", alias: "C", description: "Workspace" },
    yes: { type: "boolean", alias: "y", description: "Yes" },
  },
  run() {},
});

describe("renderUsage", () => {
  test("the usage line, arguments (hidden ones left out) and options, from the flag specs", async () => {
    const text = await renderUsage(run, ["tool", "run"], false);
    expect(text.split("\n").map((line) => line.trimEnd())).toEqual([
      `Invoke one tool. (rienda tool run v${VERSION})`,
      "",
      "USAGE rienda tool run [OPTIONS] [NAME]",
      "",
      "ARGUMENTS",
      "",
      "  NAME    The tool",
      "",
      "OPTIONS",
      "",
      "  --max-turns=<max_turns>    Stop after this many",
      "       --http=<HOST:PORT>    Serve",
      "  -C, --workdir=<workdir>    Workspace",
      "                -y, --yes    Yes",
      "",
    ]);
  });

  test("subcommands are listed, each with its description", async () => {
    const tool = defineCommand({
      meta: { name: "tool", description: "Tools." },
      subCommands: { run, list: async () => run },
    });
    const text = await renderUsage(tool, ["tool"], false);
    expect(text).toContain("USAGE rienda tool run|list");
    expect(text).toContain("  run    Invoke one tool.");
    expect(text).toEndWith("Use rienda tool <command> --help for more information about a command.");
  });

  test("colour only on a terminal, and never with NO_COLOR or TERM=dumb", async () => {
    expect(usageInColor({ isTTY: true }, {})).toBe(true);
    expect(usageInColor({ isTTY: false }, {})).toBe(false);
    expect(usageInColor({ isTTY: true }, { NO_COLOR: "1" })).toBe(false);
    expect(usageInColor({ isTTY: true }, { TERM: "dumb" })).toBe(false);
    expect(await renderUsage(run, ["run"], true)).toContain("\u001b[36mrienda run [OPTIONS] [NAME]\u001b[39m");
  });
});
