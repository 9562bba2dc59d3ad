/**
 * Context side: describes what came of a call for the host (a value's type,
 * a module's exports, a load error or a throw, our own paths left out).
 * Refers to nothing outside itself (types aside): a part of the kernel
 * (context-kernel.ts), joined with it as source for a realm.
 */
import type { MemberShape, ModuleShape } from "../types.ts";

/** The describing functions a kernel uses. */
export interface Describe {
  shapeOf(mod: unknown): ModuleShape;
  describeType(value: unknown): string;
  describeLoadError(error: unknown): string;
  describeThrown(error: unknown): string;
  safeString(value: unknown): string;
}

/**
 * Made with the kernel, before any module runs, so the built-ins it uses are
 * its own references. `selfUrl`: our own code's URL, left out of messages.
 */
export function describing(selfUrl: string): Describe {
  const toJson = JSON.stringify;
  const fromJson = JSON.parse;
  const keysOf = Object.keys;

  function shapeOf(mod: unknown): ModuleShape {
    const members: ModuleShape["members"] = {};
    if (mod !== null && (typeof mod === "object" || typeof mod === "function")) {
      // Index loops: a module may have replaced the iterators for-of uses.
      const keys = keysOf(mod as object);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!;
        const value = (mod as Record<string, unknown>)[key];
        const member: MemberShape = { type: describeType(value) };
        if (typeof value === "function") {
          // Told apart here, where the function is: the host sees only this description.
          const kind = (value as { constructor?: { name?: string } }).constructor?.name;
          if (kind === "AsyncFunction" || kind === "AsyncGeneratorFunction") member.async = true;
          else if (PROMISE_WORDS.test(functionSource(value))) member.usesPromises = true;
        } else {
          try {
            member.value = fromJson(toJson(value) ?? "null");
          } catch {
            // Not JSON-able (cycles, bigint): the type alone tells what is wrong.
          }
        }
        members[key] = member;
      }
    }
    return { type: describeType(mod), members };
  }

  // Signs in a function's source that it counts on promises settling.
  const PROMISE_WORDS = /\bPromise\b|\.then\s*\(|\bawait\b/;

  function functionSource(fn: unknown): string {
    try {
      return Function.prototype.toString.call(fn);
    } catch {
      return "";
    }
  }

  function describeType(value: unknown): string {
    if (value === undefined) return "undefined";
    if (value === null) return "null";
    if (Array.isArray(value)) return "an array";
    if (typeof value === "object" && typeof (value as { then?: unknown }).then === "function") return "a Promise";
    switch (typeof value) {
      case "string":
        return "a string";
      case "number":
        return "a number";
      case "boolean":
        return "a boolean";
      case "bigint":
        return "a bigint";
      case "symbol":
        return "a symbol";
      case "function":
        return "a function";
      default:
        return "an object";
    }
  }

  function describeLoadError(error: unknown): string {
    const e = error as {
      name?: string;
      message?: string;
      errors?: unknown[];
      position?: { line?: number; column?: number; file?: string };
    } | null;
    // Bun reports several syntax errors of one file as an AggregateError of BuildMessages.
    if (e && Array.isArray(e.errors) && e.errors.length > 0) {
      const more = e.errors.length - 1;
      return describeLoadError(e.errors[0]) + (more > 0 ? ` (and ${more} more error${more > 1 ? "s" : ""})` : "");
    }
    if (e && e.name === "BuildMessage") {
      const where = e.position && e.position.line ? ` (line ${e.position.line}, column ${e.position.column})` : "";
      return `SyntaxError: ${e.message}${where}`;
    }
    if (e && (e as { code?: unknown }).code === "MODULE_NOT_FOUND")
      return describeMissingModule(e as { message?: string; requireStack?: unknown });
    if (e && e.name === "ResolveMessage") return stripHostPaths(String(e.message));
    return describeThrown(error);
  }

  /**
   * "Cannot find module 'x' (required by /path/of/the/requiring/file.js)": the
   * requiring file decides where the lookup went (its folder's node_modules,
   * then those above), which discovery and `rienda doctor` report.
   */
  function describeMissingModule(e: { message?: string; requireStack?: unknown }): string {
    const first = stripHostPaths(String(e.message ?? "")).split("\n")[0]!;
    const requirer = Array.isArray(e.requireStack) ? e.requireStack[0] : undefined;
    if (typeof requirer !== "string" || stripHostPaths(requirer) !== requirer) return first;
    return `${first} (required by ${requirer})`;
  }

  function describeThrown(error: unknown): string {
    if (
      error instanceof Error ||
      (error !== null && typeof error === "object" && typeof (error as Error).message === "string")
    ) {
      const e = error as Error;
      const name = typeof e.name === "string" && e.name !== "Error" && e.name !== "" ? `${e.name}: ` : "";
      return stripHostPaths(name + e.message);
    }
    if (typeof error === "string") return stripHostPaths(error);
    return stripHostPaths(safeString(error));
  }

  /** Our own file paths (the worker, the embedded bundle) mean nothing to a user. */
  function stripHostPaths(text: string): string {
    const self = selfUrl;
    const selfPath = self.startsWith("file://") ? decodeURIComponent(new URL(self).pathname) : self;
    return text
      .replace(/\nRequire stack:(\n- [^\n]*)+/g, "")
      .split(self)
      .join("<rienda>")
      .split(selfPath)
      .join("<rienda>")
      .replace(/\/\$bunfs\/[^\s'")]*/g, "<rienda>")
      .replace(/B:\/~BUN\/[^\s'")]*/g, "<rienda>");
  }

  function safeString(value: unknown): string {
    if (typeof value === "string") return value;
    try {
      const json = JSON.stringify(value);
      if (json !== undefined) return json;
    } catch {
      // cycles or bigint: fall through
    }
    return String(value);
  }

  return { shapeOf, describeType, describeLoadError, describeThrown, safeString };
}
