/** Shared helpers of the config tests: parse text as if read from a fixed path, capture the error. */
import { ConfigError, parseConfig, type LoadedConfig } from "../../src/config/index.ts";

export const FILE = "/home/u/.rienda/config.yaml";
export const HOME = "/home/u";

/** Parses `text` as FILE with the given environment. */
export function parse(text: string, env: Record<string, string | undefined> = {}): LoadedConfig {
  return parseConfig(text, { path: FILE, env, home: HOME });
}

/** The ConfigError `parse` throws; fails the test when it does not throw one. */
export function errorOf(text: string, env: Record<string, string | undefined> = {}): ConfigError {
  try {
    parse(text, env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw new Error(`expected a ConfigError, got ${String(error)}`);
  }
  throw new Error("expected the configuration to be refused, but it loaded");
}

/** The error's message lines. */
export function linesOf(text: string, env: Record<string, string | undefined> = {}): string[] {
  return errorOf(text, env).message.split("\n");
}
