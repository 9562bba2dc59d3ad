import { describe, expect, test } from "bun:test";
import { classifyHttpError } from "../../src/providers/classify-http-error.ts";
import { classifyStreamError } from "../../src/providers/classify-stream-error.ts";

/** What llama-server (b11669) answers, as HTTP bodies and in-stream errors alike. */
const LLAMA = {
  image: "image input is not supported - hint: if this is unexpected, you may need to provide the mmproj",
  grammar: 'got exception: Unexpected empty grammar stack after accepting piece: \n{"name": "shell",  (278)',
};

describe("a 5xx for a request the server can never serve is final", () => {
  for (const [what, message] of Object.entries(LLAMA)) {
    test(`HTTP 500: ${what}`, () => {
      const body = JSON.stringify({ error: { code: 500, message, type: "server_error" } });
      expect(classifyHttpError(500, body)).toMatchObject({
        kind: "invalid_request",
        retryable: false,
        message: `HTTP 500: ${message}`,
      });
    });
    test(`in the stream: ${what}`, () => {
      expect(classifyStreamError({ error: { code: 500, message, type: "server_error" } })).toMatchObject({
        kind: "invalid_request",
        retryable: false,
      });
    });
  }

  test("a 5xx that says nothing of the request is still retried", () => {
    const body = JSON.stringify({ error: { code: 500, message: "slot unavailable", type: "server_error" } });
    expect(classifyHttpError(500, body)).toMatchObject({ kind: "server", retryable: true });
    expect(classifyStreamError({ error: { code: 500, message: "loading model", type: "server_error" } })).toMatchObject(
      { kind: "server", retryable: true },
    );
  });

  test("a 4xx is judged by its status as before", () => {
    expect(
      classifyHttpError(400, JSON.stringify({ error: { message: "image input is not supported" } })),
    ).toMatchObject({ kind: "invalid_request", retryable: false });
  });
});
