/** The flags `rienda run` and the chat share, with the same meaning in both (docs/cli.md). */
export const runFlags = {
  session: { type: "string", alias: "s", description: "Continue this session (with -a/-m: switch agent or model)" },
  model: { type: "string", alias: "m", description: "Model override, provider/alias" },
  thinking: {
    type: "string",
    description: "Thinking level: off, or one the model declares (rienda models lists them)",
  },
  workdir: { type: "string", alias: "C", description: "Workspace directory (default: the current one)" },
  "auto-approve": { type: "boolean", alias: "y", description: "Answer yes to every confirmation" },
  config: { type: "string", description: "Path of config.yaml" },
  sandbox: {
    type: "string",
    description: "Where the shell tool's commands run: off, read-only or workspace-write (docs/security.md)",
  },
} as const;

/** The flags, shared by `run` (and the parts that apply by the chat). */
export const runSessionFlags = {
  continue: { type: "boolean", alias: "c", description: "Continue this workspace's latest session" },
  fork: { type: "boolean", description: "With -s/-c: continue into a new session (the original is not written)" },
  at: {
    type: "string",
    description: "With -s/-c: continue from this message of the session (ids: rienda sessions show ID --tree)",
  },
  "no-session": { type: "boolean", alias: "ephemeral", description: "Write no session file (also --ephemeral)" },
} as const;
