/** `--http HOST:PORT` of `rienda mcp serve`, checked before anything is loaded. */
import { RiendaError } from "../errors.ts";

/** Where `--http` may listen: loopback only, since whoever reaches the port runs the tools. */
export function parseListenAddress(text: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(text.trim());
  const host = match ? (match[1] ?? match[2]!) : "";
  const port = match ? Number(match[3]) : -1;
  if (!match || port > 65535)
    throw new RiendaError("usage", `mcp serve: --http wants HOST:PORT, e.g. 127.0.0.1:8931 (got "${text}")`);
  if (!isLoopbackHost(host)) {
    throw new RiendaError(
      "usage",
      `mcp serve: --http listens on loopback addresses only (127.0.0.1, ::1, localhost), not "${host}": whoever reaches the port runs your tools`,
    );
  }
  return { host, port };
}

/** 127.x.x.x, ::1 and localhost. */
export function isLoopbackHost(host: string | undefined): boolean {
  return (
    host === "localhost" || host === "::1" || (host !== undefined && /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host))
  );
}
