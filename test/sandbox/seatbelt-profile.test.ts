import { describe, expect, test } from "bun:test";
import { denialNote, seatbeltProfile, type SandboxPolicy } from "../../src/sandbox/index.ts";

const policy: SandboxPolicy = {
  mode: "workspace-write",
  network: false,
  gitWrite: false,
  hide: ["/Users/ana/.ssh", '/Users/ana/we"ird'],
  writable: [],
  workspace: "/Users/ana/project",
  home: "/Users/ana",
};

describe("seatbeltProfile", () => {
  test("writes only the private tmp and the workspace (not .git), hides paths, no network", () => {
    const profile = seatbeltProfile(policy, "/private/var/folders/x/T/rienda-sandbox-1");
    expect(profile).toContain("(deny file-write*)");
    expect(profile).toContain(
      '(allow file-write* (subpath "/private/var/folders/x/T/rienda-sandbox-1") (subpath "/Users/ana/project")',
    );
    expect(profile).toContain('(deny file-write* (subpath "/Users/ana/project/.git"))');
    expect(profile).toContain(
      '(deny file-read* file-write* (subpath "/Users/ana/.ssh") (subpath "/Users/ana/we\\"ird"))',
    );
    expect(profile).toContain("(deny network*)");
  });

  test("read-only with the network: neither the workspace nor a deny of the network", () => {
    const profile = seatbeltProfile({ ...policy, mode: "read-only", network: true }, "/tmp/t");
    expect(profile).not.toContain('(subpath "/Users/ana/project")');
    expect(profile).not.toContain("network");
  });
});

describe("denialNote", () => {
  test("a refused write or connection gets a note naming the sandbox's limits; other output none", () => {
    expect(denialNote(policy, "sh: 1: cannot create /etc/x: Read-only file system")).toStartWith(
      'sandbox: this command ran in the "workspace-write" sandbox, which may have refused a write or a read: it can write only the workspace (not its .git) and a private /tmp; it has no network',
    );
    expect(denialNote(policy, "curl: (7) Couldn't connect to server")).toContain("a network connection");
    expect(denialNote({ ...policy, network: true }, "curl: (7) Couldn't connect to server")).toBeUndefined();
    expect(denialNote(policy, "all fine")).toBeUndefined();
  });
});
