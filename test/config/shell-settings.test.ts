/** config.yaml's `shell:` block and the provider variables it hides (issue 39, item 6). */
import { describe, expect, test } from "bun:test";
import { parseConfig } from "../../src/config/index.ts";
import { shellEnvFilter } from "../../src/tools/index.ts";

const load = (text: string, env: Record<string, string> = {}) =>
  parseConfig(text, { path: "/home/u/.rienda/config.yaml", env, home: "/home/u" });

describe("shell settings", () => {
  test("the provider variables are those with a value in api_key, headers and base_url; not the model id's", () => {
    const config = load(
      [
        "providers:",
        "  a:",
        "    protocol: openai_chat_completions",
        '    base_url: "https://${HOST}/v1?key=${URL_KEY}"',
        '    api_key: "${A_KEY}"',
        '    headers: { X-Team: "Bearer ${TEAM_TOKEN}", X-Empty: "${EMPTY:-}" }',
        '    models: { m: { id: "${MODEL_ID}" } }',
        "",
      ].join("\n"),
      { HOST: "h.example", URL_KEY: "k", A_KEY: "sk", TEAM_TOKEN: "t", MODEL_ID: "x" },
    );
    expect(config.shell.providerVariables.sort()).toEqual(["A_KEY", "HOST", "TEAM_TOKEN", "URL_KEY"]);
    expect(config.shell.hideEnv).toEqual([]);
  });

  test("hide_env and pass_env as written", () => {
    const config = load(
      'providers: { a: { protocol: anthropic, base_url: "http://x", models: { m: {} } } }\nshell: { hide_env: ["*_TOKEN", AWS_*], pass_env: [GH_TOKEN] }\n',
    );
    expect(config.shell).toEqual({ providerVariables: [], hideEnv: ["*_TOKEN", "AWS_*"], passEnv: ["GH_TOKEN"] });
  });
});

describe("shellEnvFilter", () => {
  test("hides provider variables and hide_env matches, unless pass_env names them; case matters", () => {
    const hidden = shellEnvFilter({
      providerVariables: ["OPENAI_API_KEY", "GH_TOKEN"],
      hideEnv: ["*_TOKEN", "AWS_*"],
      passEnv: ["GH_TOKEN"],
    });
    const names = [
      "OPENAI_API_KEY",
      "GH_TOKEN",
      "NPM_TOKEN",
      "AWS_SECRET_ACCESS_KEY",
      "npm_token",
      "TOKEN",
      "PATH",
      "HOME",
    ];
    expect(names.filter(hidden)).toEqual(["OPENAI_API_KEY", "NPM_TOKEN", "AWS_SECRET_ACCESS_KEY"]);
  });
});
