import { describe, expect, test } from "bun:test";
import { classifyHttpError } from "../../src/providers/classify-http-error.ts";
import { classifyStreamError } from "../../src/providers/classify-stream-error.ts";
import { parseRetryAfter } from "../../src/providers/parse-retry-after.ts";

const openai = (message: string, type = "invalid_request_error", code: string | null = null) =>
  JSON.stringify({ error: { message, type, param: null, code } });
const anthropic = (type: string, message: string) => JSON.stringify({ type: "error", error: { type, message } });

describe("classifying HTTP errors", () => {
  test("retries exactly 408, 409, 429 and 5xx", () => {
    const retryable = [408, 409, 429, 500, 502, 503, 504, 529].map((status) => classifyHttpError(status, "").retryable);
    const final = [400, 401, 403, 404, 413, 422].map((status) => classifyHttpError(status, "").retryable);
    expect(retryable).toEqual([true, true, true, true, true, true, true, true]);
    expect(final).toEqual([false, false, false, false, false, false]);
  });

  test("a 5xx that says the request itself is malformed is final (llama.cpp's 500 on a broken tool call)", () => {
    const llama = JSON.stringify({
      error: {
        code: 500,
        message: "Failed to parse tool call arguments as JSON: [json.exception.parse_error.101]",
        type: "server_error",
      },
    });
    expect(classifyHttpError(500, llama)).toMatchObject({ kind: "invalid_request", status: 500, retryable: false });
    expect(
      classifyHttpError(500, JSON.stringify({ error: { message: "backend crashed", type: "server_error" } })),
    ).toMatchObject({ kind: "server", retryable: true });
    // What llama-server (b11669) answers a request with tools when started with --no-jinja.
    const noJinja = JSON.stringify({
      error: { code: 500, message: "tools param requires --jinja flag", type: "server_error" },
    });
    expect(classifyHttpError(500, noJinja)).toMatchObject({
      kind: "invalid_request",
      retryable: false,
      message: "HTTP 500: tools param requires --jinja flag",
    });
  });

  test("quotes the provider's own message with the status (OpenAI shape)", () => {
    const failure = classifyHttpError(400, openai("Invalid schema for function 'x': 'object' is not valid"));
    expect(failure).toEqual({
      kind: "invalid_request",
      status: 400,
      retryable: false,
      message: "HTTP 400: Invalid schema for function 'x': 'object' is not valid",
    });
  });

  test("reads Anthropic's error shape and its types", () => {
    expect(classifyHttpError(401, anthropic("authentication_error", "invalid x-api-key"))).toMatchObject({
      kind: "authentication",
      message: "HTTP 401: invalid x-api-key",
    });
    expect(classifyHttpError(529, anthropic("overloaded_error", "Overloaded"))).toMatchObject({
      kind: "overloaded",
      retryable: true,
    });
  });

  test("recognises an oversized prompt by code or by wording", () => {
    expect(
      classifyHttpError(
        400,
        openai(
          "This model's maximum context length is 8192 tokens.",
          "invalid_request_error",
          "context_length_exceeded",
        ),
      ).kind,
    ).toBe("context_length");
    expect(
      classifyHttpError(400, anthropic("invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum"))
        .kind,
    ).toBe("context_length");
  });

  test("uses a plain-text body, or a status phrase when the body is empty", () => {
    expect(classifyHttpError(502, "<html>Bad Gateway</html>").message).toBe("HTTP 502: <html>Bad Gateway</html>");
    expect(classifyHttpError(404, "").message).toBe("HTTP 404: not found");
    expect(classifyHttpError(404, JSON.stringify({ error: "model 'llama9' not found" })).message).toBe(
      "HTTP 404: model 'llama9' not found",
    );
    expect(classifyHttpError(422, JSON.stringify({ detail: "field required" })).message).toBe(
      "HTTP 422: field required",
    );
  });

  test("keeps the retry-after it was given", () => {
    expect(classifyHttpError(429, openai("Rate limit reached"), 2000)).toMatchObject({
      kind: "rate_limit",
      retryable: true,
      retryAfterMs: 2000,
    });
  });
});

describe("classifying in-stream errors", () => {
  test("retries overloaded, server and rate-limit errors, whatever the vendor's shape", () => {
    expect(classifyStreamError({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } })).toEqual({
      kind: "overloaded",
      retryable: true,
      message: "provider error (overloaded_error): Overloaded",
    });
    expect(classifyStreamError({ type: "error", code: "server_error", message: "boom" })).toMatchObject({
      kind: "server",
      retryable: true,
    });
    expect(classifyStreamError({ error: { message: "Provider returned error", code: 502 } })).toMatchObject({
      kind: "server",
      retryable: true,
    });
  });

  test("does not retry an invalid request reported mid-stream", () => {
    expect(
      classifyStreamError({ type: "error", error: { type: "invalid_request_error", message: "bad" } }),
    ).toMatchObject({ kind: "invalid_request", retryable: false });
    expect(classifyStreamError({ error: { message: "weird" } })).toMatchObject({
      kind: "other",
      retryable: false,
      message: "provider error: weird",
    });
  });
});

describe("reading retry-after", () => {
  test("reads retry-after-ms, seconds, and HTTP dates; ignores nonsense", () => {
    expect(parseRetryAfter(new Headers({ "retry-after-ms": "1500", "retry-after": "9" }))).toBe(1500);
    expect(parseRetryAfter(new Headers({ "retry-after": "3" }))).toBe(3000);
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(parseRetryAfter(new Headers({ "retry-after": "Wed, 01 Jan 2025 00:00:10 GMT" }), now)).toBe(10_000);
    expect(parseRetryAfter(new Headers({ "retry-after": "soon" }))).toBeUndefined();
    expect(parseRetryAfter(new Headers())).toBeUndefined();
  });
});
