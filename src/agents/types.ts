/** Shapes of agent definitions (contract.md §3) and project instructions. */
import type { LimitSettings } from "../limits/index.ts";
import type { PermissionRule } from "../permissions/index.ts";
import type { SandboxSettings } from "../sandbox/index.ts";

/** A validated `~/.rienda/agents/<id>.md`. */
export interface Agent {
  /** The file name without `.md`. */
  id: string;
  /** Absolute path of the definition. */
  file: string;
  description: string;
  /** `provider/alias` as written; absent when the agent names none (go-current.md: the session picks the model). */
  model?: string;
  /** Tool names, in the order written, no duplicates. */
  tools: string[];
  /** Hook names, in the order they run, no duplicates. */
  hooks: string[];
  /** Skill names (`~/.rienda/skills/<name>`), in the order written, no duplicates. */
  skills: string[];
  /** Ids of the agents it may delegate to (docs/subagents.md), in the order written, no duplicates. */
  agents: string[];
  /** Extension name -> settings (`ctx.agent.config`). */
  config: Record<string, Record<string, unknown>>;
  /** `max_turns`, `max_cost`, `timeout` as the frontmatter writes them (new; docs/cli.md "Limits"). */
  limits: LimitSettings;
  /** `sandbox:` as the frontmatter writes it (new; docs/security.md "The sandbox"): wins over config.yaml's, `--sandbox` over it. */
  sandbox: SandboxSettings;
  /** `permissions:` (new; docs/security.md "Permission rules"): checked with config.yaml's. */
  permissions: PermissionRule[];
  /** The body after the frontmatter, trimmed. */
  systemPrompt: string;
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
