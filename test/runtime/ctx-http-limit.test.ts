/**
 * The per-invocation cap on `ctx.http.fetch` bodies
 * (InvocationContext.httpBodyLimitBytes; provider modules get 32 MiB): a
 * larger body fails the call without being read whole, against a local
 * server on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer, type Server } from "node:http";
import { createRuntime, type Runtime } from "../../src/runtime/index.ts";
import { Sandbox } from "./support.ts";

const MIB = 1024 * 1024;
let runtime: Runtime;
let server: Server;
let base = "";
const box = new Sandbox();
/** How many bytes the endless answer had sent when its connection was dropped, once it was. */
let endlessSentWhenClosed: number | undefined;

beforeAll(async () => {
  runtime = createRuntime();
  server = createServer((req, res) => {
    const size = /^\/size\/(\d+)$/.exec(req.url ?? "");
    if (size) return void res.end("x".repeat(Number(size[1])));
    if (req.url === "/endless") {
      // Never ends by itself: only a reader that stops reading ends it.
      let sent = 0;
      const chunk = Buffer.alloc(64 * 1024, "y");
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) sent += chunk.length;
        if (!res.destroyed) sent += chunk.length;
      };
      res.on("drain", pump);
      res.on("close", () => (endlessSentWhenClosed = sent));
      return void pump();
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await runtime.close();
  box.dispose();
});

async function fetchWith(limit: number | undefined, path: string): Promise<unknown> {
  const body = `try { return ctx.http.fetch(${JSON.stringify(base + path)}).body.length; } catch (e) { return { threw: e.message }; }`;
  const context = { ...box.context(), ...(limit !== undefined ? { httpBodyLimitBytes: limit } : {}) };
  const outcome = await runtime.invoke({
    modulePath: box.tool("fetch", body),
    exportName: "execute",
    args: [{}],
    context,
  });
  if (outcome.kind !== "returned") throw new Error(`unexpected ${JSON.stringify(outcome)}`);
  return outcome.value;
}

describe("ctx.http.fetch with a body limit", () => {
  test("a body up to the limit is returned whole", async () => {
    expect(await fetchWith(MIB, `/size/${MIB}`)).toBe(MIB);
    expect(await fetchWith(1000, "/size/0")).toBe(0);
  });

  test("a body one byte over the limit fails the call, naming the request and the limit", async () => {
    expect(await fetchWith(MIB, `/size/${MIB + 1}`)).toEqual({
      threw: `ctx.http.fetch: GET ${base}/size/${MIB + 1}: the response body is larger than 1 MiB`,
    });
    expect(await fetchWith(64 * 1024, "/size/70000")).toEqual({
      threw: `ctx.http.fetch: GET ${base}/size/70000: the response body is larger than 64 KiB`,
    });
    expect(await fetchWith(1000, "/size/1001")).toEqual({
      threw: `ctx.http.fetch: GET ${base}/size/1001: the response body is larger than 1000 bytes`,
    });
  });

  test("an endless body fails at the limit providers get (32 MiB): reading stops and the connection is dropped", async () => {
    endlessSentWhenClosed = undefined;
    expect(await fetchWith(32 * MIB, "/endless")).toEqual({
      threw: `ctx.http.fetch: GET ${base}/endless: the response body is larger than 32 MiB`,
    });
    // The server learns the reader is gone; what it had sent by then is the limit plus what sockets buffer, not everything.
    for (let i = 0; i < 500 && endlessSentWhenClosed === undefined; i++) await new Promise((r) => setTimeout(r, 10));
    expect(endlessSentWhenClosed).toBeGreaterThan(32 * MIB);
    expect(endlessSentWhenClosed).toBeLessThan(64 * MIB);
  });

  test("without a limit (tools and hooks) a body over the providers' 32 MiB is read whole", async () => {
    expect(await fetchWith(undefined, `/size/${33 * MIB}`)).toBe(33 * MIB);
  });
});
