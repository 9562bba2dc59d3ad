/**
 * An HTTP proxy in front of a real server that records every request it
 * passes on (`METHOD /path`), byte for byte both ways: a test counts what
 * Rienda asked of llama.cpp (how many attempts of a request, which probes)
 * without changing what either side sees.
 */
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface CountingProxy {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** `METHOD /path` of every request so far, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** A proxy to `127.0.0.1:targetPort`. */
export async function startCountingProxy(targetPort: number): Promise<CountingProxy> {
  const requests: string[] = [];
  const server: Server = createServer((incoming, answer) => {
    requests.push(`${incoming.method} ${incoming.url}`);
    const upstream = request(
      { host: "127.0.0.1", port: targetPort, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (response) => {
        answer.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(answer);
      },
    );
    upstream.on("error", () => answer.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((closed) => server.close(() => closed())),
  };
}
