import { describe, expect, test } from "bun:test";
import { checkSessions } from "../../../src/cli/doctor/index.ts";

const S = "/h/.rienda/sessions";

describe("checkSessions", () => {
  test("private directories and files give no finding", () => {
    expect(
      checkSessions([
        { path: S, kind: "dir", mode: 0o40700 },
        { path: `${S}/w`, kind: "dir", mode: 0o40700 },
        { path: `${S}/w/a.jsonl`, kind: "file", mode: 0o100600 },
      ]),
    ).toEqual([]);
  });

  test("a directory readable by others is a warning with a chmod fix", () => {
    expect(checkSessions([{ path: S, kind: "dir", mode: 0o40755 }])).toEqual([
      {
        severity: "warning",
        check: "sessions",
        file: S,
        message: "directory is open to other users (mode 0755, should be 0700); sessions hold whole conversations",
        hint: `chmod -R go-rwx ${S}`,
      },
    ]);
  });

  test("open files are grouped per directory", () => {
    const findings = checkSessions([
      { path: `${S}/w/a.jsonl`, kind: "file", mode: 0o100644 },
      { path: `${S}/w/b.jsonl`, kind: "file", mode: 0o100604 },
      { path: `${S}/w/c.jsonl`, kind: "file", mode: 0o100600 },
    ]);
    expect(findings).toHaveLength(1);
    expect(findings[0]!.file).toBe(`${S}/w`);
    expect(findings[0]!.message).toBe(
      "2 files (a.jsonl, ...) are readable or writable by other users (mode 0644; sessions should be 0600)",
    );
    expect(findings[0]!.hint).toBe(`chmod go-rwx ${S}/w/*`);
  });

  test("group write alone counts as open", () => {
    expect(checkSessions([{ path: `${S}/w/a.jsonl`, kind: "file", mode: 0o100620 }])[0]!.message).toStartWith(
      "a.jsonl is",
    );
  });
});
