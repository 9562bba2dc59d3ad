/**
 * Which environment variables the `shell` tool's commands do not inherit.
 * The commands are the model's: `env` or `echo $OPENAI_API_KEY` in a tool
 * call would hand it the keys Rienda itself sends to providers. Hidden by
 * default: the variables config.yaml's providers take their keys from;
 * `shell.hide_env` adds names and `*` patterns, `shell.pass_env` puts
 * names back (docs/security.md). Tools' `ctx.system.exec` and MCP servers
 * are not concerned (extensions are trusted; servers get their own list).
 */

/** config.yaml's `shell:` block, as tools/ sees it. */
export interface ShellEnvPolicy {
  providerVariables: readonly string[];
  hideEnv: readonly string[];
  passEnv: readonly string[];
}

/** Whether a variable is kept from the `shell` tool's commands. */
export function shellEnvFilter(policy: ShellEnvPolicy): (name: string) => boolean {
  const provider = new Set(policy.providerVariables);
  const hide = matcher(policy.hideEnv);
  const pass = matcher(policy.passEnv);
  return (name) => (provider.has(name) || hide(name)) && !pass(name);
}

/** Names match exactly (case matters, as in the environment); `*` stands for any run of characters. */
function matcher(patterns: readonly string[]): (name: string) => boolean {
  if (patterns.length === 0) return () => false;
  const expressions = patterns.map((p) => new RegExp(`^${p.replace(/[^A-Za-z0-9_*]/g, "").replaceAll("*", ".*")}$`));
  return (name) => expressions.some((e) => e.test(name));
}
