/**
 * A TCP proxy in front of a real server that hands its answer on a few
 * bytes at a time. The puppet model answers in milliseconds, too fast to
 * interrupt or to lose mid-answer; behind this proxy the same real bytes
 * arrive over a second or two, so a test can act while they do. `cut()`
 * drops every connection at once, as a client sees a server that died
 * mid-answer.
 */
import { connect, createServer, type Server, type Socket } from "node:net";

export interface PacingProxy {
  url: string;
  /** Bytes handed on to clients so far. */
  delivered(): number;
  /** Closes every connection now, dropping what was not handed on. */
  cut(): void;
  close(): Promise<void>;
}

/** A proxy to `127.0.0.1:targetPort` that forwards the answer `pieceBytes` every `intervalMs`. */
export async function startPacingProxy(targetPort: number, pieceBytes = 48, intervalMs = 25): Promise<PacingProxy> {
  const sockets = new Set<Socket>();
  let delivered = 0;
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, "127.0.0.1");
    sockets.add(client);
    sockets.add(upstream);
    const pending: Buffer[] = [];
    let upstreamEnded = false;
    const timer = setInterval(() => {
      const next = pending.shift();
      if (next) {
        const piece = next.subarray(0, pieceBytes);
        if (next.length > pieceBytes) pending.unshift(next.subarray(pieceBytes));
        delivered += piece.length;
        client.write(piece);
      } else if (upstreamEnded) {
        clearInterval(timer);
        client.end();
      }
    }, intervalMs);
    const drop = () => {
      clearInterval(timer);
      client.destroy();
      upstream.destroy();
    };
    client.on("data", (chunk) => upstream.write(chunk));
    client.on("error", drop);
    client.on("close", () => {
      sockets.delete(client);
      drop();
    });
    upstream.on("data", (chunk: Buffer) => pending.push(chunk));
    upstream.on("end", () => (upstreamEnded = true));
    upstream.on("error", drop);
    upstream.on("close", () => sockets.delete(upstream));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    delivered: () => delivered,
    cut: () => {
      for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
