/**
 * Says in our own words why a request never got an answer, from the error
 * code the runtime attached; the runtime's own wording ("Is the computer
 * able to access the url?", "pass `verbose: true`") is never shown.
 */

/** What went wrong at the connection level, and whether nothing listens at all. */
export interface NetworkProblem {
  text: string;
  refused: boolean;
}

export function describeNetworkError(error: unknown, url: string): NetworkProblem {
  const code = codeOf(error);
  const where = hostOf(url);
  switch (code) {
    case "ECONNREFUSED":
    case "ConnectionRefused":
      return { text: `connection refused: nothing is listening on ${where}`, refused: true };
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_NONAME":
    case "DNSException":
      return { text: `the host name ${hostnameOf(url)} could not be resolved (DNS)`, refused: false };
    case "ECONNRESET":
    case "ConnectionClosed":
    case "EPIPE":
      return { text: `${where} closed the connection before answering`, refused: false };
    case "ETIMEDOUT":
    case "ConnectionTimeout":
    case "Timeout":
      return { text: `connecting to ${where} timed out`, refused: false };
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return { text: `${where} cannot be reached from this machine (no route)`, refused: false };
    case "FailedToOpenSocket":
      return { text: `could not open a connection to ${where}`, refused: false };
    default:
      if (code && /CERT|TLS|SSL/i.test(code))
        return { text: `the TLS certificate of ${where} was not accepted (${code})`, refused: false };
      return { text: ownWords(error, code, where), refused: false };
  }
}

/** True for addresses of this machine, where a model server is something the user starts. */
export function isLocalUrl(url: string): boolean {
  const host = hostnameOf(url).replace(/^\[|\]$/g, "");
  return host === "localhost" || host === "::1" || host === "0.0.0.0" || /^127\./.test(host);
}

function codeOf(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && code !== "") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A runtime message with its boilerplate sentences cut, or the bare code. */
function ownWords(error: unknown, code: string | undefined, where: string): string {
  const raw = error instanceof Error ? error.message : String(error);
  const cleaned = raw
    .replace(/Is the computer able to access the url\??/gi, "")
    .replace(/For more information,? pass `verbose: true`[^.]*\.?/gi, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.:]$/, "");
  if (cleaned !== "" && cleaned !== code) return `the connection to ${where} failed: ${cleaned}`;
  return code ? `the connection to ${where} failed (${code})` : `the connection to ${where} failed`;
}

function hostOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.port ? `${parsed.hostname}:${parsed.port}` : parsed.hostname;
  } catch {
    return url;
  }
}

function hostnameOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}
