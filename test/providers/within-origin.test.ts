import { describe, expect, test } from "bun:test";
import { fetchWithinOrigin, isWithinOrigin } from "../../src/providers/within-origin.ts";

/** A fetch answering each URL from a table; records what it was asked. */
function fakeFetch(answers: Record<string, () => Response>) {
  const asked: Array<{ url: string; init: RequestInit }> = [];
  const fetch = (url: string, init: RequestInit) => {
    asked.push({ url, init });
    const answer = answers[url];
    return Promise.resolve(answer ? answer() : new Response("no such url", { status: 599 }));
  };
  return { fetch, asked };
}

const redirect = (status: number, location: string) => () => new Response(null, { status, headers: { location } });

describe("fetchWithinOrigin", () => {
  test("a redirect to another host is refused, never sent there", async () => {
    const { fetch, asked } = fakeFetch({
      "https://api.example.com/v1/messages": redirect(307, "https://evil.example.net/v1/messages"),
    });
    const outcome = await fetchWithinOrigin(fetch, "https://api.example.com/v1/messages", {
      method: "POST",
      body: "{}",
    });
    expect(outcome).toEqual({
      refused: {
        from: "https://api.example.com/v1/messages",
        status: 307,
        to: "https://evil.example.net/v1/messages",
        reason: "origin",
      },
    });
    expect(asked.map((a) => a.url)).toEqual(["https://api.example.com/v1/messages"]);
    expect(asked[0]!.init.redirect).toBe("manual");
  });

  test("another port or scheme is another origin; a relative Location stays", async () => {
    const from = new URL("http://127.0.0.1:8080/v1");
    expect(isWithinOrigin(from, new URL("http://127.0.0.1:8081/v1"))).toBe(false);
    expect(isWithinOrigin(from, new URL("https://127.0.0.1:8080/v1"))).toBe(false);
    expect(isWithinOrigin(from, new URL("/v2", from))).toBe(true);
    expect(isWithinOrigin(new URL("http://example.com/v1"), new URL("https://example.com/v1"))).toBe(true);
    expect(isWithinOrigin(from, new URL("http://user:pw@127.0.0.1:8080/v1"))).toBe(false);
  });

  test("307 and 308 within the origin are followed with the same request; at most five hops", async () => {
    const { fetch, asked } = fakeFetch({
      "http://h/a": redirect(307, "/b"),
      "http://h/b": redirect(308, "http://h/c"),
      "http://h/c": () => new Response("done"),
    });
    const outcome = await fetchWithinOrigin(fetch, "http://h/a", { method: "POST", body: "x" });
    expect("response" in outcome && (await outcome.response.text())).toBe("done");
    expect(asked.map((a) => [a.url, a.init.method, a.init.body])).toEqual([
      ["http://h/a", "POST", "x"],
      ["http://h/b", "POST", "x"],
      ["http://h/c", "POST", "x"],
    ]);
    const loop = fakeFetch({ "http://h/a": redirect(307, "/a") });
    const looped = await fetchWithinOrigin(loop.fetch, "http://h/a", { method: "POST" });
    expect("refused" in looped && looped.refused.reason).toBe("count");
    expect(loop.asked.length).toBe(6);
  });

  test("a 302 within the origin is refused too: it would turn the POST into a GET", async () => {
    const { fetch } = fakeFetch({ "http://h/a": redirect(302, "/b") });
    const outcome = await fetchWithinOrigin(fetch, "http://h/a", { method: "POST" });
    expect("refused" in outcome && outcome.refused.reason).toBe("method");
  });

  test("a 3xx without a Location is an answer like any other", async () => {
    const { fetch } = fakeFetch({ "http://h/a": () => new Response("x", { status: 304 }) });
    const outcome = await fetchWithinOrigin(fetch, "http://h/a", { method: "POST" });
    expect("response" in outcome && outcome.response.status).toBe(304);
  });
});
