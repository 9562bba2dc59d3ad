/**
 * Findings about replay scripts (`protocol: replay`): a run reads the script
 * only when the model is used, so doctor reads it now. Broken and used is a
 * problem; broken and unused a warning.
 */
import type { ModelUser } from "./model-users.ts";
import type { Finding } from "./types.ts";

/** What reading and parsing one provider's script gave. */
export interface ReplayScriptOutcome {
  provider: string;
  /** Absolute path of the script. */
  file: string;
  /** Undefined when the script parses; else why not (without the file). */
  problem?: string;
  /** The file does not exist (the fix differs). */
  missing?: boolean;
}

/** One finding per script that is missing, unreadable or invalid. */
export function checkReplayScripts(
  configFile: string,
  outcomes: readonly ReplayScriptOutcome[],
  users: readonly ModelUser[],
): Finding[] {
  return outcomes.flatMap((o): Finding[] => {
    if (o.problem === undefined) return [];
    const using = users.filter((u) => u.provider === o.provider);
    const who = using.map((u) => `${u.label} (${u.ref})`).join(", ");
    const restore = /\/replay\/starter\.yaml$/.test(o.file) ? ` ("rienda init" restores the starter script)` : "";
    return [
      {
        severity: using.length > 0 ? "problem" : "warning",
        check: "config",
        file: o.file,
        name: o.provider,
        message: `replay script of provider "${o.provider}" ${o.problem}${using.length > 0 ? `; ${who} ${using.length === 1 ? "uses" : "use"} it` : ""}`,
        hint: o.missing
          ? `create it (docs/providers.md, "Replay") or correct providers.${o.provider}.script in ${configFile}${restore}`
          : `fix the script (docs/providers.md, "Replay" describes the format)`,
      },
    ];
  });
}
