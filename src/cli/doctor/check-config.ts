/** Findings about config.yaml as a whole: missing, unreadable or invalid, each problem with its key and a fix. */
import type { ConfigProblem, ConfigSource } from "../../config/index.ts";
import type { Finding } from "./types.ts";

/** What became of loading the configuration. */
export type ConfigOutcome =
  | { kind: "loaded" }
  | { kind: "missing"; file: string; source: ConfigSource }
  | { kind: "invalid"; problems: readonly ConfigProblem[] };

/** One problem finding per thing wrong with the file; none when it loaded. */
export function checkConfig(outcome: ConfigOutcome): Finding[] {
  if (outcome.kind === "loaded") return [];
  if (outcome.kind === "missing") return [missingFinding(outcome.file, outcome.source)];
  return outcome.problems.map((p) => {
    const finding: Finding = {
      severity: "problem",
      check: "config",
      file: p.file,
      message: p.message,
      hint: configHint(p),
    };
    if (p.path !== "") finding.key = p.path;
    if (p.line !== undefined) finding.line = p.line;
    return finding;
  });
}

/** One warning per setting of a loaded file that does not do what it says (e.g. sampling with Anthropic thinking). */
export function checkConfigWarnings(warnings: readonly ConfigProblem[]): Finding[] {
  return warnings.map((w) => {
    const finding: Finding = {
      severity: "warning",
      check: "config",
      file: w.file,
      message: w.message,
      hint: `edit "${w.path}" in ${w.file} (docs/providers.md, Model settings)`,
    };
    if (w.path !== "") finding.key = w.path;
    if (w.line !== undefined) finding.line = w.line;
    return finding;
  });
}

function missingFinding(file: string, source: ConfigSource): Finding {
  const hint =
    source === "flag"
      ? `check the path given with --config, or leave --config out to use ~/.rienda/config.yaml (run "rienda init" to create it)`
      : source === "env"
        ? `check the path in RIENDA_CONFIG, or unset it to use ~/.rienda/config.yaml (run "rienda init" to create it)`
        : `run "rienda init": it writes a commented starter config.yaml (docs/config.md describes the file)`;
  return { severity: "problem", check: "config", file, message: "no configuration file here", hint };
}

/** A fix for one validation problem, chosen by what the message says. */
export function configHint(problem: ConfigProblem): string {
  const m = problem.message;
  const key = problem.path === "" ? "" : ` "${problem.path}"`;
  if (/^no configuration file/.test(m)) return `run "rienda init": it writes a commented starter config.yaml`;
  if (/the file is empty/.test(m))
    return `declare at least one provider (docs/config.md), or move the empty file away and run "rienda init"`;
  if (/^unknown key/.test(m)) return `remove the key${key} or correct its spelling (the message lists the known keys)`;
  if (/duplicate key/.test(m)) return "keep one of the two keys and delete the other";
  if (/second YAML document/.test(m)) return "remove the second document: config.yaml holds one";
  if (/^line \d+/.test(m)) return "fix the YAML syntax at that line and column";
  if (/^unknown (preset|protocol|thinking level)/.test(m)) return "use one of the values the message lists";
  if (/^unknown (provider|model)/.test(m))
    return `declare that provider and model under "providers", or change${key} to a model the file declares`;
  if (/set either protocol or preset/.test(m)) return 'keep only one of "protocol" and "preset"';
  if (/needs either "protocol"/.test(m)) return 'add "preset: <name>", or "protocol:" together with "base_url:"';
  if (/is required/.test(m)) return `add${key} to the provider (docs/config.md shows an example)`;
  if (/is not used by|is only used by/.test(m)) return `remove${key}`;
  if (/at least one provider/.test(m)) return 'declare a provider under "providers" (docs/config.md shows several)';
  if (/variable reference/.test(m)) return "write the reference as ${NAME} (or $${ for a literal ${)";
  if (/permission denied/.test(m)) return `make the file readable by you: chmod 600 ${problem.file}`;
  if (/is a directory/.test(m)) return "point the configuration at a file, not a directory";
  if (/^must |^a |^provider name/.test(m))
    return `change the value of${key || " the key"} as the message says (docs/config.md describes each key)`;
  return "see docs/config.md for what the file may contain";
}
