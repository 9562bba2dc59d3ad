/** Findings about the workspace's project instructions (AGENTS.md, else CLAUDE.md). */
import type { OutsideLink } from "../../agents/index.ts";
import type { Finding } from "./types.ts";

/** What reading the instructions gave. */
export type InstructionsOutcome =
  | { kind: "none" }
  | {
      kind: "read";
      file: string;
      text: string /** A later candidate that the empty file hides (CLAUDE.md behind AGENTS.md). */;
      hidden?: string;
    }
  | { kind: "unreadable"; file: string; reason: string }
  /** Not a plain file, or too large: refused without being read. */
  | { kind: "refused"; file: string; reason: string };

/** An unreadable file stops every run, so it is a problem; an empty one only adds nothing, a warning. */
export function checkInstructions(outcome: InstructionsOutcome): Finding[] {
  if (outcome.kind === "none") return [];
  if (outcome.kind === "refused") {
    return [
      {
        severity: "problem",
        check: "instructions",
        file: outcome.file,
        message: `${outcome.reason}; every run in this workspace stops on it`,
        hint: `replace it with a plain file of at most 1 MiB, or remove it`,
      },
    ];
  }
  if (outcome.kind === "unreadable") {
    return [
      {
        severity: "problem",
        check: "instructions",
        file: outcome.file,
        message: `cannot be read: ${outcome.reason}; every run in this workspace stops on it`,
        hint: `make it readable by you (chmod u+r ${outcome.file}), or remove it`,
      },
    ];
  }
  if (outcome.text !== "") return [];
  const hidden = outcome.hidden
    ? `; it also hides ${outcome.hidden}, which is read only when there is no ${baseName(outcome.file)}`
    : "";
  return [
    {
      severity: "warning",
      check: "instructions",
      file: outcome.file,
      message: `is empty, so agents get no project instructions from it${hidden}`,
      hint: outcome.hidden
        ? `write the project's instructions in it, or delete it so ${baseName(outcome.hidden)} is used`
        : "write the project's instructions in it (docs/agents.md), or delete it",
    },
  ];
}

/** A file a run skips because a symbolic link leads it out of the workspace (agents/workspace-link.ts): a warning, since the run goes on without it. */
export function checkOutsideLinks(skipped: readonly OutsideLink[]): Finding[] {
  return skipped.map((found) => ({
    severity: "warning",
    check: "instructions",
    file: found.link,
    message: `leads through a symbolic link to ${found.target}, outside the workspace: runs skip it, and agents get no instructions from it`,
    hint: `if the link is meant, copy the file into the workspace instead; if you did not make it, find out who did (it would have sent ${found.target} to the model provider)`,
  }));
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
