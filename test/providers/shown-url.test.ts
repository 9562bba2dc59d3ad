import { describe, expect, test } from "bun:test";
import { anthropicUrl } from "../../src/providers/anthropic-request.ts";
import { joinUrl } from "../../src/providers/request-headers.ts";
import { shownUrl, urlSecrets } from "../../src/providers/shown-url.ts";

describe("shownUrl", () => {
  test("hides a password, a lone user name (often the token) and query values", () => {
    expect(shownUrl("https://ana:s3cret@proxy.example/v1")).toBe("https://ana:***@proxy.example/v1");
    expect(shownUrl("https://tok_abc123@proxy.example/v1")).toBe("https://***@proxy.example/v1");
    expect(shownUrl("https://api.example/v1?key=s3cret&api-version=2024")).toBe(
      "https://api.example/v1?key=***&api-version=***",
    );
  });

  test("a URL with nothing to hide comes back exactly as written", () => {
    for (const url of ["http://127.0.0.1:11434/v1", "https://api.openai.com/v1/", "http://localhost:8080", "not a url"])
      expect(shownUrl(url)).toBe(url);
  });
});

describe("request URLs", () => {
  test("the path goes before a query of base_url, which stays at the end", () => {
    expect(joinUrl("https://x.example/openai/v1?api-version=preview", "chat/completions")).toBe(
      "https://x.example/openai/v1/chat/completions?api-version=preview",
    );
    expect(joinUrl("https://x.example/v1/", "/responses")).toBe("https://x.example/v1/responses");
    expect(anthropicUrl("https://x.example/v1?beta=1")).toBe("https://x.example/v1/messages?beta=1");
    expect(anthropicUrl("https://x.example?beta=1")).toBe("https://x.example/v1/messages?beta=1");
  });
});

describe("urlSecrets (issue 39, item 5)", () => {
  test("the password, or a lone user name, and every query value of 8 characters or more, as written and decoded", () => {
    expect(urlSecrets("https://ana:pw-SECRET-1@h/v1?key=SECRET-2&v=2024")).toEqual(["pw-SECRET-1", "SECRET-2"]);
    expect(urlSecrets("https://tok-SECRET-3@h/v1").sort()).toEqual(["tok-SECRET-3"]);
    expect(urlSecrets("https://h/v1?key=a%2Fb%20cdefgh").sort()).toEqual(["a%2Fb%20cdefgh", "a/b cdefgh"].sort());
    expect(urlSecrets("not a url")).toEqual([]);
  });
});
