import { describe, expect, test } from "bun:test";
import { checkVariables, modelUsers } from "../../../src/cli/doctor/index.ts";
import { parseConfig } from "../../../src/config/index.ts";

const FILE = "/home/ana/.rienda/config.yaml";

function load(text: string, env: Record<string, string> = {}) {
  return parseConfig(text, { path: FILE, env, home: "/home/ana" });
}

const CONFIG = `
providers:
  openai:
    preset: openai
    api_key: \${OPENAI_API_KEY}
    models: { gpt-4o: {}, o3: {} }
  local:
    preset: ollama
    models:
      llama: { id: "\${LLAMA_ID}" }
      qwen: {}
mcp_servers:
  team:
    command: node
    env: { TEAM_TOKEN: "\${WC_TOKEN}" }
config:
  word-count: { token: "\${NOT_EXPANDED}" }
`;

describe("checkVariables", () => {
  test("an unset key of a provider no agent uses is a warning naming the variable, the key and a fix", () => {
    const config = load(CONFIG);
    const findings = checkVariables(config, modelUsers([{ id: "coder", model: "local/qwen" }], config.compaction));
    const openai = findings.find((f) => f.name === "OPENAI_API_KEY")!;
    expect(openai).toEqual({
      severity: "warning",
      check: "config",
      file: FILE,
      key: "providers.openai.api_key",
      name: "OPENAI_API_KEY",
      message: 'environment variable OPENAI_API_KEY is not set; nothing uses provider "openai" yet',
      hint: `set OPENAI_API_KEY before using openai, or remove the provider "openai" from ${FILE}`,
    });
  });

  test("an unset key that an agent's model needs is a problem naming the agent", () => {
    const config = load(CONFIG);
    const users = modelUsers(
      [
        { id: "coder", model: "openai/o3" },
        { id: "writer", model: "openai/gpt-4o" },
      ],
      config.compaction,
    );
    const openai = checkVariables(config, users).find((f) => f.name === "OPENAI_API_KEY")!;
    expect(openai.severity).toBe("problem");
    expect(openai.message).toBe(
      'environment variable OPENAI_API_KEY is not set, and agent "coder" (openai/o3), agent "writer" (openai/gpt-4o) need it',
    );
    expect(openai.hint).toContain("set OPENAI_API_KEY");
  });

  test("a variable under one model is needed only by that model", () => {
    const config = load(CONFIG);
    const other = checkVariables(config, modelUsers([{ id: "a", model: "local/qwen" }], config.compaction)).find(
      (f) => f.name === "LLAMA_ID",
    )!;
    expect(other.severity).toBe("warning");
    expect(other.message).toContain('nothing uses model "local/llama" yet');
    const own = checkVariables(config, modelUsers([{ id: "a", model: "local/llama" }], config.compaction)).find(
      (f) => f.name === "LLAMA_ID",
    )!;
    expect(own.severity).toBe("problem");
  });

  test("compaction.model counts as a user while compaction is on", () => {
    const text = `${CONFIG}compaction: { model: openai/gpt-4o }\n`;
    const on = load(text);
    expect(
      checkVariables(on, modelUsers([], on.compaction)).find((f) => f.name === "OPENAI_API_KEY")!.message,
    ).toContain("compaction.model (openai/gpt-4o) needs it");
    const off = load(`${CONFIG}compaction: { enabled: false, model: openai/gpt-4o }\n`);
    expect(checkVariables(off, modelUsers([], off.compaction)).find((f) => f.name === "OPENAI_API_KEY")!.severity).toBe(
      "warning",
    );
  });

  test("an unset variable outside the providers (an MCP server's env) is a warning that it reads as empty", () => {
    const config = load(CONFIG);
    const token = checkVariables(config, []).find((f) => f.name === "WC_TOKEN")!;
    expect(token.severity).toBe("warning");
    expect(token.key).toBe("mcp_servers.team.env.TEAM_TOKEN");
    expect(token.message).toBe("environment variable WC_TOKEN is not set, so this value is empty");
  });

  test("the config block is not expanded, so a reference there is no finding", () => {
    expect(checkVariables(load(CONFIG), []).find((f) => f.name === "NOT_EXPANDED")).toBeUndefined();
  });

  test("set variables give no finding", () => {
    const config = load(CONFIG, { OPENAI_API_KEY: "k", LLAMA_ID: "l", WC_TOKEN: "" });
    expect(checkVariables(config, modelUsers([{ id: "a", model: "openai/o3" }], config.compaction))).toEqual([]);
  });

  test("provider names that need quoting in key paths still match their variables", () => {
    const config = load(
      `providers:\n  "my.box":\n    preset: ollama\n    models:\n      a: { id: "\${A_ID}" }\n      b: {}\n`,
    );
    expect(checkVariables(config, modelUsers([{ id: "x", model: "my.box/b" }], config.compaction))[0]!.severity).toBe(
      "warning",
    );
    expect(checkVariables(config, modelUsers([{ id: "x", model: "my.box/a" }], config.compaction))[0]!.severity).toBe(
      "problem",
    );
  });
});
