/** Shapes of agent definitions (contract.md §3) and project instructions. */
import type { LimitSettings } from "../limits/index.ts";
import type { PermissionRule } from "../permissions/index.ts";
import type { SandboxSettings } from "../sandbox/index.ts";
import type { AgentInfo } from "../tools/types.ts";

/**
 * A validated `~/.rienda/agents/<id>.md`. The fields a tool sees as
 * `ctx.agent` are AgentInfo's, declared once there; `id` is its `name`.
 */
export interface Agent extends Omit<AgentInfo, "name" | "config"> {
  /** The file name without `.md`. */
  id: string;
  /** Absolute path of the definition. */
  file: string;
  /** Extension name -> settings (`ctx.agent.config`). */
  config: Record<string, Record<string, unknown>>;
  /** `max_turns`, `max_cost`, `timeout` as the frontmatter writes them (new; docs/cli.md "Limits"). */
  limits: LimitSettings;
  /** `sandbox:` as the frontmatter writes it (new; docs/security.md "The sandbox"): wins over config.yaml's, `--sandbox` over it. */
  sandbox: SandboxSettings;
  /** `permissions:` (new; docs/security.md "Permission rules"): checked with config.yaml's. */
  permissions: PermissionRule[];
}

/** An agent file that could not be loaded; `message` is the whole `<file>: <problem>` text. */
export interface AgentProblem {
  id: string;
  file: string;
  message: string;
}

/** Every agent of `~/.rienda/agents`: the good ones and, separately, the broken ones. */
export interface AgentList {
  /** Sorted by id. */
  agents: Agent[];
  /** Sorted by file. */
  problems: AgentProblem[];
}

/** The project instructions file found in a workspace. */
export interface ProjectInstructions {
  /** Absolute path of `AGENTS.md` or `CLAUDE.md`. */
  file: string;
  /** Its content, trimmed, with LF line ends (may be empty). */
  text: string;
}
