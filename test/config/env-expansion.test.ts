import { describe, expect, test } from "bun:test";
import { CONTRACT_EXAMPLE, MINIMAL } from "./example-config.ts";
import { FILE, linesOf, parse } from "./parse-helpers.ts";

const TWO_PROVIDERS = `providers:
  openai:
    preset: openai
    api_key: \${OPENAI_API_KEY}
    models: { gpt-4o: {} }
  anthropic:
    preset: anthropic
    api_key: \${ANTHROPIC_API_KEY}
    models: { sonnet: { id: claude-sonnet-4-5 } }
`;

describe("${NAME} in config.yaml", () => {
  test("expands in provider fields: api_key, base_url, headers", () => {
    const text = `providers:
  p:
    protocol: openai_chat_completions
    base_url: http://\${LLM_HOST}:8080/v1
    api_key: \${KEY}
    headers: { X-Team: "team-\${TEAM}" }
    models: { m: {} }
`;
    const model = parse(text, { LLM_HOST: "gpu", KEY: "k1", TEAM: "a" }).resolveModel("p/m");
    expect([model.baseUrl, model.apiKey, model.headers["X-Team"]]).toEqual(["http://gpu:8080/v1", "k1", "team-a"]);
  });

  test("an unset key of a provider nobody uses breaks nothing", () => {
    const config = parse(TWO_PROVIDERS, { ANTHROPIC_API_KEY: "sk-ant" });
    expect(config.resolveModel("anthropic/sonnet").apiKey).toBe("sk-ant");
  });

  test("resolving a model whose provider needs an unset variable names the variable and the key", () => {
    const config = parse(TWO_PROVIDERS, { ANTHROPIC_API_KEY: "sk-ant" });
    expect(() => config.resolveModel("openai/gpt-4o")).toThrow(
      `${FILE}: providers.openai.api_key: environment variable OPENAI_API_KEY is not set (needed by openai/gpt-4o)`,
    );
  });

  test("a variable set to an empty string is a deliberate empty value", () => {
    expect(parse(TWO_PROVIDERS, { OPENAI_API_KEY: "" }).resolveModel("openai/gpt-4o").apiKey).toBe("");
  });

  test("unsetVariables lists every unset reference with its key path (for rienda doctor)", () => {
    expect(parse(TWO_PROVIDERS, {}).unsetVariables).toEqual([
      { path: "providers.openai.api_key", variable: "OPENAI_API_KEY" },
      { path: "providers.anthropic.api_key", variable: "ANTHROPIC_API_KEY" },
    ]);
  });

  test("an unset variable in another model's settings does not block this model", () => {
    const text = "providers:\n  p:\n    preset: ollama\n    models:\n      a: { id: '${A_ID}' }\n      b: {}\n";
    const config = parse(text, {});
    expect(config.resolveModel("p/b").wireId).toBe("b");
    expect(() => config.resolveModel("p/a")).toThrow(
      "providers.p.models.a.id: environment variable A_ID is not set (needed by p/a)",
    );
  });

  test("an unset variable in base_url is reported when used, not as an invalid URL at load", () => {
    const text = "providers:\n  p:\n    protocol: anthropic\n    base_url: ${PROXY_URL}\n    models: { m: {} }\n";
    const config = parse(text, {});
    expect(() => config.resolveModel("p/m")).toThrow("providers.p.base_url: environment variable PROXY_URL is not set");
  });

  test("an expanded base_url is still validated", () => {
    const text = "providers:\n  p:\n    protocol: anthropic\n    base_url: ${PROXY_URL}\n";
    expect(linesOf(text, { PROXY_URL: "proxy.local" })).toEqual([
      `${FILE}: providers.p.base_url: must be an http:// or https:// URL (got "proxy.local")`,
    ]);
  });

  test("the config block and the document (ctx.config) are as written: nothing there is expanded, and a Go-era ${ is text", () => {
    const text = `${MINIMAL.replace("models:", 'api_key: "${KEY}"\n    models:')}config:\n  github: { token: "\${GH_TOKEN}", org: "\${GH_ORG}", tpl: "\${not closed" }\n`;
    const config = parse(text, { GH_TOKEN: "t", KEY: "secret" });
    expect(config.extensionConfig.github).toEqual({ token: "${GH_TOKEN}", org: "${GH_ORG}", tpl: "${not closed" });
    const document = config.document as { config: Record<string, unknown>; providers: { local: { api_key: string } } };
    expect(document.config.github).toEqual({ token: "${GH_TOKEN}", org: "${GH_ORG}", tpl: "${not closed" });
    // The key a request sends is expanded; the document a tool reads shows the reference, not the secret.
    expect(document.providers.local.api_key).toBe("${KEY}");
    expect(config.resolveModel("local/m").apiKey).toBe("secret");
    expect(config.unsetVariables).toEqual([]);
  });

  test("keys are never expanded", () => {
    const config = parse(`${MINIMAL}config:\n  \${X}: {}\n`, { X: "y" });
    expect(Object.keys(config.extensionConfig)).toEqual(["${X}"]);
  });

  test("a malformed reference is a load error naming the key", () => {
    expect(linesOf(`${MINIMAL.replace("models:", "api_key: ${OPENAI_API_KEY\n    models:")}`)).toEqual([
      `${FILE}: providers.local.api_key: unclosed variable reference "\${OPENAI_API_KEY" (write \${NAME}, or $\${ for a literal \${)`,
    ]);
  });

  test("the contract example works without OPENAI_API_KEY until openai is used", () => {
    const config = parse(CONTRACT_EXAMPLE, {});
    expect(config.resolveModel("local/llama").apiKey).toBe("sk-...");
    expect(() => config.resolveModel("openai/gpt-4o")).toThrow("OPENAI_API_KEY is not set");
  });
});

describe("${NAME} and YAML flow style", () => {
  test("inside { } a reference must be quoted: unquoted, the braces are YAML syntax", () => {
    const headers = (value: string) => MINIMAL.replace("models:", `headers: { X-Token: ${value} }\n    models:`);
    expect(linesOf(headers("${GH_TOKEN}"))[0]).toStartWith(`${FILE}: line 5, column `);
    expect(parse(headers('"${GH_TOKEN}"'), { GH_TOKEN: "t" }).resolveModel("local/m").headers).toEqual({
      "X-Token": "t",
    });
  });
});
