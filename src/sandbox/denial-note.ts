/**
 * What the model reads after a command's output when the sandbox refused it
 * something: the sandbox's limits in a line, so that it asks the user
 * instead of retrying the same thing another way (issue 43).
 */
import type { SandboxPolicy } from "./types.ts";

const WRITE_REFUSED = /Read-only file system|EROFS/;
const ACCESS_REFUSED = /Permission denied|EACCES|Operation not permitted|EPERM/;
const NETWORK_REFUSED =
  /Network is unreachable|ENETUNREACH|Connection refused|Couldn't connect to server|Failed to connect|ECONNREFUSED|Could not resolve host|Temporary failure in name resolution|Name or service not known|getaddrinfo|nodename nor servname/;

/** The note for this output, or undefined when nothing in it looks like the sandbox's refusal. */
export function denialNote(policy: SandboxPolicy, output: string): string | undefined {
  const refused: string[] = [];
  if (WRITE_REFUSED.test(output) || ACCESS_REFUSED.test(output)) refused.push("a write or a read");
  if (!policy.network && NETWORK_REFUSED.test(output)) refused.push("a network connection");
  if (refused.length === 0) return undefined;
  return `sandbox: this command ran in the "${policy.mode}" sandbox, which may have refused ${refused.join(" and ")}: ${limitsText(policy)}. Do not retry another way; ask the user to allow it.`;
}

/** The sandbox's limits in a sentence. */
export function limitsText(policy: SandboxPolicy): string {
  const writes =
    policy.mode === "workspace-write"
      ? `it can write only the workspace${policy.gitWrite ? "" : " (not its .git)"}${policy.writable.length > 0 ? `, ${policy.writable.join(", ")}` : ""} and a private /tmp`
      : "it can write only a private /tmp";
  return `${writes}; ${policy.network ? "it has the network" : "it has no network"}; some paths are hidden (${policy.hide.slice(0, 3).join(", ")}, ...)`;
}
