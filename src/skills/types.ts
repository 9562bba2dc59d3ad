/** Shapes of Agent Skills (`~/.rienda/skills/<name>/SKILL.md`, docs/skills.md). */

/** A validated skill folder. */
export interface Skill {
  /** The `name` of the frontmatter, equal to the folder's name. */
  name: string;
  /** What the skill does and when to use it (trimmed, at most 1024 characters). */
  description: string;
  /** Absolute path of the skill folder (`~/.rienda/skills/<name>`, as listed: a symbolic link stays a link). */
  dir: string;
  /** Absolute path of its SKILL.md. */
  file: string;
  /** The Markdown after the frontmatter, trimmed: what the `skill` tool returns. */
  body: string;
  license?: string;
  compatibility?: string;
  /** Free key/value pairs of the format; read and checked, not acted on. */
  metadata: Record<string, string>;
  /** The format's experimental `allowed-tools`; read and checked, not acted on (the agent declares its tools). */
  allowedTools: string[];
  /** Keys of another harness's own (Claude Code's `model`, `argument-hint`, ...) present in the frontmatter: accepted, not acted on. */
  ignoredKeys: string[];
}

/** A skill folder that could not be loaded; `message` is the whole `<file>: <problem>` text, a line per problem. */
export interface SkillProblem {
  /** The folder's name. */
  name: string;
  /** The file at fault: SKILL.md, or the folder when SKILL.md is missing. */
  file: string;
  message: string;
}

/** Every skill of `~/.rienda/skills`: the good ones and, separately, the broken ones. */
export interface SkillList {
  /** Sorted by name. */
  skills: Skill[];
  /** Sorted by folder name. */
  problems: SkillProblem[];
}
