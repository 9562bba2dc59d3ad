import { describe, expect, test } from "bun:test";
import { bwrapArgs, resolveSandboxPolicy, type PathFacts, type SandboxPolicy } from "../../src/sandbox/index.ts";

/** A file system of these real paths (directories end with "/"); links map a path to its target. */
function facts(paths: string[], links: Record<string, string> = {}): PathFacts {
  const dirs = new Set(paths.filter((p) => p.endsWith("/")).map((p) => p.slice(0, -1)));
  const all = new Set(paths.map((p) => p.replace(/\/$/, "")));
  return {
    real: (path) => {
      const target = links[path] ?? path;
      return all.has(target) ? target : undefined;
    },
    isDirectory: (path) => dirs.has(path),
  };
}

const policy = (over: Partial<SandboxPolicy> = {}): SandboxPolicy => ({
  mode: "workspace-write",
  network: false,
  gitWrite: false,
  hide: [],
  writable: [],
  workspace: "/home/ana/project",
  home: "/home/ana",
  ...over,
});

describe("bwrapArgs", () => {
  test("workspace-write: read-only root, private /tmp, the workspace writable, its .git read-only, no network, no capability", () => {
    const args = bwrapArgs(
      policy(),
      "/home/ana/project/src",
      facts(["/home/ana/project/", "/home/ana/project/.git/", "/home/ana/project/src/"]),
    );
    expect(args).toEqual([
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--tmpfs",
      "/tmp",
      "--bind",
      "/home/ana/project",
      "/home/ana/project",
      "--ro-bind",
      "/home/ana/project/.git",
      "/home/ana/project/.git",
      "--unshare-pid",
      "--unshare-ipc",
      "--unshare-uts",
      "--cap-drop",
      "ALL",
      "--die-with-parent",
      "--unshare-net",
      "--chdir",
      "/home/ana/project/src",
    ]);
  });

  test("read-only binds the workspace read-only again over the private /tmp; network: true keeps the network; git_write leaves .git alone", () => {
    const fs = facts(["/tmp/w/", "/tmp/w/.git/"]);
    const readOnly = bwrapArgs(policy({ mode: "read-only", workspace: "/tmp/w", network: true }), "/tmp/w", fs);
    expect(readOnly).toContain("--ro-bind");
    expect(readOnly.join(" ")).toContain("--tmpfs /tmp --ro-bind /tmp/w /tmp/w");
    expect(readOnly).not.toContain("--unshare-net");
    expect(readOnly).not.toContain("--bind");
    const gitWrite = bwrapArgs(policy({ workspace: "/tmp/w", gitWrite: true }), "/tmp/w", fs);
    expect(gitWrite.join(" ")).not.toContain(".git");
  });

  test("hidden paths: a directory becomes an empty read-only one, a file reads as /dev/null; one holding the workspace is masked before it, one inside after it; links are followed; missing ones are skipped", () => {
    const fs = facts(["/home/ana/", "/home/ana/project/", "/home/ana/.ssh/", "/home/ana/project/.env", "/data/keys/"], {
      "/home/ana/link-to-keys": "/data/keys",
    });
    const args = bwrapArgs(
      policy({ hide: ["/home/ana", "/home/ana/.ssh", "/home/ana/project/.env", "/home/ana/link-to-keys", "/nowhere"] }),
      "/home/ana/project",
      fs,
    ).join(" ");
    expect(args).toContain(
      "--tmpfs /tmp --tmpfs /home/ana --remount-ro /home/ana --bind /home/ana/project /home/ana/project --tmpfs /home/ana/.ssh --remount-ro /home/ana/.ssh --ro-bind /dev/null /home/ana/project/.env --tmpfs /data/keys --remount-ro /data/keys --unshare-pid",
    );
    expect(args).not.toContain("nowhere");
  });

  test("writable paths are bound read-write in workspace-write only", () => {
    const fs = facts(["/home/ana/project/", "/home/ana/.cache/"]);
    expect(bwrapArgs(policy({ writable: ["/home/ana/.cache"] }), "/home/ana/project", fs).join(" ")).toContain(
      "--bind /home/ana/.cache /home/ana/.cache",
    );
    expect(
      bwrapArgs(policy({ mode: "read-only", writable: ["/home/ana/.cache"] }), "/home/ana/project", fs).join(" "),
    ).not.toContain(".cache");
  });
});

describe("resolveSandboxPolicy", () => {
  const where = { workspace: "/home/ana/project", home: "/home/ana" };

  test("nothing set is off; the first place that writes a key wins it; hide lists add up over the defaults", () => {
    expect(resolveSandboxPolicy([{}, {}], where)).toBeUndefined();
    expect(resolveSandboxPolicy([{ mode: "off" }, { mode: "workspace-write" }], where)).toBeUndefined();
    const resolved = resolveSandboxPolicy(
      [
        { mode: "read-only", hide: [".env"] },
        { mode: "workspace-write", network: true, hide: ["~/secrets", "/srv/keys"], writable: ["~/.cache"] },
      ],
      where,
    )!;
    expect(resolved.mode).toBe("read-only");
    expect(resolved.network).toBe(true);
    expect(resolved.gitWrite).toBe(false);
    expect(resolved.writable).toEqual(["/home/ana/.cache"]);
    expect(resolved.hide).toContain("/home/ana/.rienda");
    expect(resolved.hide).toContain("/home/ana/.ssh");
    expect(resolved.hide.slice(-3)).toEqual(["/home/ana/project/.env", "/home/ana/secrets", "/srv/keys"]);
  });
});
