import { describe, expect, test } from "bun:test";
import { parseSandboxMode, readSandboxSettings, settingPath } from "../../src/sandbox/index.ts";

describe("readSandboxSettings", () => {
  test("a mode alone, or a mapping of every key", () => {
    expect(readSandboxSettings("workspace-write")).toEqual({ settings: { mode: "workspace-write" }, problems: [] });
    expect(readSandboxSettings(undefined)).toEqual({ settings: {}, problems: [] });
    expect(
      readSandboxSettings({
        mode: "read-only",
        network: true,
        git_write: false,
        hide: ["~/.x", ".env"],
        writable: ["/srv"],
      }),
    ).toEqual({
      settings: { mode: "read-only", network: true, gitWrite: false, hide: ["~/.x", ".env"], writable: ["/srv"] },
      problems: [],
    });
  });

  test("every problem at its key", () => {
    const { problems } = readSandboxSettings({
      mode: "sealed",
      network: "no",
      hide: "~/.ssh",
      writable: [3],
      other: 1,
    });
    expect(problems.map((p) => `${settingPath("sandbox", p.path)}: ${p.message}`)).toEqual([
      "sandbox.other: unknown key (known keys: mode, network, git_write, hide, writable)",
      'sandbox.mode: must be one of off, read-only, workspace-write, not a string ("sealed")',
      'sandbox.network: must be true or false, not a string ("no")',
      'sandbox.hide: must be a list of paths (absolute, ~/..., or relative to the workspace), not a string ("~/.ssh")',
      "sandbox.writable[0]: must be a path, not a number (3)",
    ]);
    expect(readSandboxSettings(42).problems[0]!.message).toStartWith(
      "must be a mode (off, read-only, workspace-write) or a mapping",
    );
  });

  test("--sandbox", () => {
    expect(parseSandboxMode("read-only")).toEqual({ mode: "read-only" });
    expect(parseSandboxMode("on")).toEqual({
      problem: 'must be one of off, read-only, workspace-write, not a string ("on")',
    });
  });
});
