/**
 * The environment of a stdio MCP server: a few variables every program
 * expects, then the server's own `env:`. Rienda's other variables (provider
 * keys among them) are not passed on: a server gets only what its entry in
 * config.yaml gives it.
 */
export const INHERITED = [
  "HOME",
  "LOGNAME",
  "PATH",
  "SHELL",
  "TERM",
  "USER",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TMPDIR",
  "TZ",
] as const;

/** `env` of the process: the inherited variables that are set, overridden by `own`. */
export function serverEnvironment(
  processEnv: Readonly<Record<string, string | undefined>>,
  own: Readonly<Record<string, string>>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED) {
    const value = processEnv[name];
    // An exported shell function is code, not a setting.
    if (value !== undefined && !value.startsWith("()")) env[name] = value;
  }
  return { ...env, ...own };
}
