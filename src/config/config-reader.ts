/**
 * Typed reads of the expanded document that record a problem instead of
 * throwing, so one pass reports everything wrong with the file.
 * A null value (`key:` with nothing after it) always counts as absent, as it
 * did for the Go original.
 */
import type { ConfigProblem } from "./config-error.ts";
import { formatKeyPath, type KeyPath } from "./key-path.ts";
import type { ExpandedVariable, UnsetVariable } from "./types.ts";
import { describeYamlValue, didYouMean, isPlainObject } from "../values.ts";

// yaml.v3 read these as booleans for a bool field; a Go-era file may use them.
const YAML11_TRUE = new Set(["y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "true", "True", "TRUE"]);
const YAML11_FALSE = new Set(["n", "N", "no", "No", "NO", "off", "Off", "OFF", "false", "False", "FALSE"]);

/** Validation state for one file. */
export class ConfigReader {
  readonly problems: ConfigProblem[] = [];
  /** Settings that load but do not do what they say (a file with only these is valid). */
  readonly warnings: ConfigProblem[] = [];

  constructor(
    readonly file: string,
    private readonly sourceOf: (path: KeyPath) => string | undefined,
    private readonly keyOrder: (path: KeyPath) => string[],
    private readonly lineOf: (path: KeyPath) => number | undefined,
    private readonly unset: readonly UnsetVariable[],
    private readonly expanded: readonly ExpandedVariable[] = [],
  ) {}

  /** The entries of `map` (found at `path`) in the order the file lists them. */
  entries(map: Record<string, unknown>, path: KeyPath): [string, unknown][] {
    const order = this.keyOrder(path);
    const rank = (key: string): number => {
      const i = order.indexOf(key);
      return i < 0 ? order.length : i;
    };
    return Object.entries(map).sort(([a], [b]) => rank(a) - rank(b));
  }

  /** Records a problem at `path`. */
  problem(path: KeyPath, message: string): void {
    const problem: ConfigProblem = { file: this.file, path: formatKeyPath(path), message };
    const line = this.lineOf(path);
    if (line !== undefined) problem.line = line;
    this.problems.push(problem);
  }

  /** Records a warning at `path`. */
  warning(path: KeyPath, message: string): void {
    const warning: ConfigProblem = { file: this.file, path: formatKeyPath(path), message };
    const line = this.lineOf(path);
    if (line !== undefined) warning.line = line;
    this.warnings.push(warning);
  }

  /** The problems in file order (stable: problems of one line keep the order they were found in). */
  sortedProblems(): ConfigProblem[] {
    return [...this.problems].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  }

  /** A mapping; null is an empty one. Anything else is a problem and `undefined`. */
  mapping(value: unknown, path: KeyPath): Record<string, unknown> | undefined {
    if (value === null || value === undefined) return {};
    if (isPlainObject(value)) return value;
    this.problem(path, `must be a mapping (key: value pairs), not ${describeYamlValue(value)}`);
    return undefined;
  }

  /** Reports every key of `map` not in `known`, with a suggestion when one is close. */
  knownKeys(map: Record<string, unknown>, known: readonly string[], path: KeyPath): void {
    for (const key of Object.keys(map)) {
      if (known.includes(key)) continue;
      this.problem([...path, key], `unknown key (${didYouMean(key, known)}known keys: ${known.join(", ")})`);
    }
  }

  /** A string, or nothing when the key is not set; see `text`. */
  string(map: Record<string, unknown>, key: string, path: KeyPath): string | undefined {
    const value = map[key];
    if (value === null || value === undefined) return undefined;
    return this.text(value, [...path, key]);
  }

  /** The value at `path` as a string: numbers and booleans read as the text they were written as (`1.10`, `1_000`; yaml.v3 did the same). */
  text(value: unknown, path: KeyPath): string | undefined {
    if (typeof value === "string") return value;
    if (typeof value === "number" || typeof value === "boolean") return this.sourceOf(path) ?? String(value);
    this.problem(path, `must be a string, not ${describeYamlValue(value)}`);
    return undefined;
  }

  /** An integer ≥ 1. */
  positiveInteger(map: Record<string, unknown>, key: string, path: KeyPath): number | undefined {
    return this.integer(map, key, path, 1, "must be a positive integer");
  }

  /** An integer ≥ 0. */
  nonNegativeInteger(map: Record<string, unknown>, key: string, path: KeyPath): number | undefined {
    return this.integer(map, key, path, 0, "must be an integer of 0 or more");
  }

  /** A finite number in [min, max]. */
  numberBetween(
    map: Record<string, unknown>,
    key: string,
    path: KeyPath,
    min: number,
    max: number,
  ): number | undefined {
    const value = map[key];
    if (value === null || value === undefined) return undefined;
    if (typeof value !== "number" || !Number.isFinite(value)) {
      this.problem([...path, key], `must be a number between ${min} and ${max}, not ${describeYamlValue(value)}`);
      return undefined;
    }
    if (value < min || value > max) {
      this.problem([...path, key], `must be between ${min} and ${max}`);
      return undefined;
    }
    return value;
  }

  /** A boolean (`true`/`false`, and the YAML 1.1 words yaml.v3 accepted: yes/no, on/off). */
  boolean(map: Record<string, unknown>, key: string, path: KeyPath): boolean | undefined {
    const value = map[key];
    if (value === null || value === undefined) return undefined;
    if (typeof value === "boolean") return value;
    if (typeof value === "string" && YAML11_TRUE.has(value)) return true;
    if (typeof value === "string" && YAML11_FALSE.has(value)) return false;
    this.problem([...path, key], `must be true or false, not ${describeYamlValue(value)}`);
    return undefined;
  }

  /** The scalar at `path` as written in the file, `${NAME}` references unexpanded. */
  written(path: KeyPath): string | undefined {
    return this.sourceOf(path);
  }

  /** Unset variables referred to at `path` or below it. */
  unsetUnder(path: KeyPath): UnsetVariable[] {
    return this.unset.filter(under(path));
  }

  /** Variables whose values went into strings at `path` or below it. */
  expandedUnder(path: KeyPath): ExpandedVariable[] {
    return this.expanded.filter(under(path));
  }

  private integer(
    map: Record<string, unknown>,
    key: string,
    path: KeyPath,
    min: number,
    message: string,
  ): number | undefined {
    const value = map[key];
    if (value === null || value === undefined) return undefined;
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
      this.problem([...path, key], typeof value === "number" ? message : `${message}, not ${describeYamlValue(value)}`);
      return undefined;
    }
    return value;
  }
}

/** Whether a recorded key path is `path` or lies below it. */
function under(path: KeyPath): (item: { path: string }) => boolean {
  const prefix = formatKeyPath(path);
  return (item) => item.path === prefix || item.path.startsWith(`${prefix}.`) || item.path.startsWith(`${prefix}[`);
}
