/** The flags `rienda run` and the chat share, with the same meaning in both (docs/cli.md). */
export const runFlags = {
  session: { type: "string", alias: "s", description: "Continue this session (with -a/-m: switch agent or model)" },
  model: { type: "string", alias: "m", description: "Model override, provider/alias" },
  thinking: { type: "string", description: "Thinking level: off, or one the model declares (rienda models lists them)" },
  workdir: { type: "string", alias: "C", description: "Workspace directory (default: the current one)" },
  "auto-approve": { type: "boolean", alias: "y", description: "Answer yes to every confirmation" },
  config: { type: "string", description: "Path of config.yaml" },
  sandbox: { type: "string", description: "Where the shell tool's commands run: off, read-only or workspace-write (docs/security.md)" },
} as const;
