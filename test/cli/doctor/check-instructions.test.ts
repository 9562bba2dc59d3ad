import { describe, expect, test } from "bun:test";
import { checkInstructions } from "../../../src/cli/doctor/index.ts";

describe("checkInstructions", () => {
  test("no instructions file, or one with text: nothing to say", () => {
    expect(checkInstructions({ kind: "none" })).toEqual([]);
    expect(checkInstructions({ kind: "read", file: "/w/AGENTS.md", text: "Run make test." })).toEqual([]);
  });

  test("an empty AGENTS.md is a warning", () => {
    expect(checkInstructions({ kind: "read", file: "/w/AGENTS.md", text: "" })).toEqual([
      {
        severity: "warning",
        check: "instructions",
        file: "/w/AGENTS.md",
        message: "is empty, so agents get no project instructions from it",
        hint: "write the project's instructions in it (docs/agents.md), or delete it",
      },
    ]);
  });

  test("an empty AGENTS.md that hides a CLAUDE.md says so", () => {
    const [finding] = checkInstructions({ kind: "read", file: "/w/AGENTS.md", text: "", hidden: "/w/CLAUDE.md" });
    expect(finding!.message).toContain("it also hides /w/CLAUDE.md");
    expect(finding!.hint).toBe("write the project's instructions in it, or delete it so CLAUDE.md is used");
  });

  test("an unreadable file is a problem: every run stops on it", () => {
    const [finding] = checkInstructions({ kind: "unreadable", file: "/w/AGENTS.md", reason: "permission denied" });
    expect(finding!.severity).toBe("problem");
    expect(finding!.message).toBe("cannot be read: permission denied; every run in this workspace stops on it");
    expect(finding!.hint).toBe("make it readable by you (chmod u+r /w/AGENTS.md), or remove it");
  });
});
