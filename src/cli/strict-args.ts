import type { ArgsDef } from "citty";
import { RiendaError } from "../errors.ts";

/**
 * citty accepts any flag; a typo in a script should fail loudly instead.
 * Checks every `-x` / `--name` token against the command's declared args and
 * rejects flags that take a value but got none.
 */
export function assertKnownFlags(rawArgs: string[], args: ArgsDef, command: string): void {
  const valueFlags = new Set<string>();
  const booleanFlags = new Set<string>();
  for (const [name, def] of Object.entries(args)) {
    if (def.type === "positional") continue;
    const names = [name, ...toList((def as { alias?: string | string[] }).alias)];
    for (const n of names) (def.type === "boolean" ? booleanFlags : valueFlags).add(n);
  }
  for (let i = 0; i < rawArgs.length; i++) {
    const token = rawArgs[i]!;
    if (token === "--") return;
    if (!token.startsWith("-") || token === "-") continue;
    const [flag, inline] = splitFlag(token);
    if (valueFlags.has(flag)) {
      if (inline === undefined) {
        const next = rawArgs[i + 1];
        if (next === undefined || (next.startsWith("-") && next !== "-")) {
          throw new RiendaError("usage", `${command}: option ${token} needs a value`);
        }
        i++;
      }
      continue;
    }
    if (booleanFlags.has(flag) || (flag.startsWith("no-") && booleanFlags.has(flag.slice(3)))) continue;
    throw new RiendaError("usage", `${command}: unknown option ${token} (see ${command} --help)`);
  }
}

function splitFlag(token: string): [string, string | undefined] {
  const body = token.replace(/^--?/, "");
  const eq = body.indexOf("=");
  return eq === -1 ? [body, undefined] : [body.slice(0, eq), body.slice(eq + 1)];
}

function toList(alias: string | string[] | undefined): string[] {
  if (alias === undefined) return [];
  return Array.isArray(alias) ? alias : [alias];
}
