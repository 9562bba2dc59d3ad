/** The two forms of a doctor report: text for people, one JSON object for scripts. */
import type { DoctorReport, Finding } from "./types.ts";
import { jsonWithControlsEscaped } from "../../ui/index.ts";
import { modelCount, rowJson, type ProviderRow } from "../shared/provider-rows.ts";

/**
 * What was checked, each finding as `<severity>: <file>[:line]: [key: ]<what>`
 * with its fix on the next line, problems before warnings, then the summary
 * line: `healthy`, `healthy (M warnings)` or `N problems, M warnings`.
 */
export function formatReport(report: DoctorReport): string {
  const { checked } = report;
  const list = (check: "agent" | "tool" | "hook" | "skill", names: readonly string[]) => {
    const broken = new Set(
      report.problems
        .filter((f) => f.check === check && f.name !== undefined && !names.includes(f.name))
        .map((f) => f.name),
    ).size;
    const shown = names.length > 0 ? names.join(", ") : "none";
    return broken > 0 ? `${shown} (and ${broken} that ${broken === 1 ? "does" : "do"} not load)` : shown;
  };
  const lines = [
    `config        ${checked.config}${!checked.configLoaded ? " (does not load)" : checked.configPresent ? "" : " (none: it is optional)"}`,
    ...providerLines(checked),
    `agents        ${list("agent", checked.agents)}`,
    `tools         ${list("tool", checked.tools)}`,
    `hooks         ${list("hook", checked.hooks)}`,
    `skills        ${list("skill", checked.skills)}`,
    `instructions  ${checked.instructions ?? `none in ${checked.workspace}`}`,
    ...checked.contextWindows.map(
      (w) => `window        ${w.model}: ${w.tokens.toLocaleString("en-US")} tokens (${w.source})`,
    ),
  ];
  const findings = [...report.problems, ...report.warnings];
  if (findings.length > 0) lines.push("");
  for (const finding of findings) lines.push(findingLine(finding), `  fix: ${finding.hint}`);
  lines.push("", summaryLine(report));
  return `${lines.join("\n")}\n`;
}

/** `providers     openai (config.yaml): key in config.yaml, 3 models`, one line per provider, the first labelled. */
function providerLines(checked: DoctorReport["checked"]): string[] {
  const label = "providers     ";
  if (!checked.configLoaded) return [`${label}not checked (the config does not load)`];
  if (checked.providers.length === 0) return [`${label}none`];
  return checked.providers.map((row, index) => `${index === 0 ? label : " ".repeat(label.length)}${providerLine(row)}`);
}

/** One provider: where it is declared, its key, its models; or that it does not load. */
function providerLine(row: ProviderRow): string {
  const origin = row.origin === "config" ? "config.yaml" : row.origin;
  if (row.key === undefined)
    return `${row.name} (${origin}): ${row.problem !== undefined ? "does not load" : "key unknown (see the findings below)"}`;
  return `${row.name} (${origin}): ${keyText(row)}, ${modelCount(row)}`;
}

function keyText(row: ProviderRow): string {
  switch (row.key) {
    case "config":
      return row.emptyKey === undefined
        ? "key in config.yaml"
        : `no key (${row.emptyKey === "empty" ? "api_key is empty" : row.emptyKey})`;
    case "credentials":
      return "key in credentials.json";
    case "not needed":
      return row.needsNoKey ? "needs no key" : "no key (optional)";
    default:
      return "no key (rienda auth)";
  }
}

/** `problem: /path/file:3: providers.x: unknown key (...)`. */
export function findingLine(finding: Finding): string {
  const where =
    finding.line !== undefined && !finding.message.startsWith("line ")
      ? `${finding.file}:${finding.line}`
      : finding.file;
  const key = finding.key !== undefined && !finding.message.startsWith(`${finding.key}:`) ? `${finding.key}: ` : "";
  return `${finding.severity}: ${where}: ${key}${finding.message}`;
}

/** The last line of the plain report. */
export function summaryLine(report: Pick<DoctorReport, "problems" | "warnings">): string {
  const warnings = count(report.warnings.length, "warning");
  if (report.problems.length === 0) return report.warnings.length === 0 ? "healthy" : `healthy (${warnings})`;
  return `${count(report.problems.length, "problem")}, ${warnings}`;
}

/** `--json`: the report as one line of JSON, fields in a stable order. */
export function formatJson(report: DoctorReport): string {
  return `${jsonWithControlsEscaped(JSON.stringify({ healthy: report.healthy, problems: report.problems.map(jsonFinding), warnings: report.warnings.map(jsonFinding), checked: { ...report.checked, providers: report.checked.providers.map(rowJson) } }))}\n`;
}

function jsonFinding(f: Finding): Record<string, unknown> {
  return {
    severity: f.severity,
    check: f.check,
    file: f.file,
    key: f.key ?? null,
    line: f.line ?? null,
    name: f.name ?? null,
    message: f.message,
    hint: f.hint,
  };
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
