/** Shapes of `rienda doctor`'s findings and report (docs/doctor.md documents the JSON form). */
import type { ProviderRow } from "../shared/provider-rows.ts";

/** A problem breaks something (exit 1); a warning is worth knowing but breaks nothing. */
export type Severity = "problem" | "warning";

/** Which check produced a finding, in the order the checks run. */
export type CheckName =
  | "config"
  | "provider"
  | "credentials"
  | "agent"
  | "tool"
  | "hook"
  | "skill"
  | "mcp"
  | "instructions"
  | "sessions";

/** One thing found wrong, with where it is and how to fix it. */
export interface Finding {
  severity: Severity;
  check: CheckName;
  /** Absolute path of the file or directory at fault. */
  file: string;
  /** Key path inside the file (`providers.openai.api_key`, `tools[1]`), when there is one. */
  key?: string;
  /** 1-based line in the file, when known. */
  line?: number;
  /** The agent id, tool, hook, skill or environment variable the finding is about. */
  name?: string;
  /** What is wrong, without the file (the formatter adds it). */
  message: string;
  /** A concrete next step. */
  hint: string;
}

/** What was looked at, so a clean report still says what "healthy" covers. */
export interface CheckedSummary {
  /** The configuration file read, or tried. */
  config: string;
  /** Whether it loaded (models could be checked only then); a missing ~/.rienda/config.yaml loads as no settings. */
  configLoaded: boolean;
  /** Whether the file exists (~/.rienda/config.yaml is optional). */
  configPresent: boolean;
  /** Every provider (config.yaml's, then modules), with its key state and models; empty when the config did not load. */
  providers: ProviderRow[];
  /** Ids of the agents that parse. */
  agents: string[];
  /** Names of the tools that load, built-ins included. */
  tools: string[];
  /** Names of the hooks that load. */
  hooks: string[];
  /** Names of the skills that load. */
  skills: string[];
  workspace: string;
  /** The AGENTS.md or CLAUDE.md found, if any. */
  instructions: string | null;
  /** The context window of each used model on a server of this machine, as the server reports it now. */
  contextWindows: { model: string; tokens: number; source: string }[];
}

/** The whole result: healthy means no problem (warnings allowed). */
export interface DoctorReport {
  healthy: boolean;
  problems: Finding[];
  warnings: Finding[];
  checked: CheckedSummary;
}
