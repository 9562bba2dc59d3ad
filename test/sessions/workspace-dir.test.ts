import { describe, expect, test } from "bun:test";
import { workspaceDirName, workspaceHash, workspaceSlug } from "../../src/sessions/index.ts";

const encoder = new TextEncoder();

describe("workspace directory names", () => {
  test("turn every run of characters other than letters, digits and _ into one dash (contract §6), then the hash", () => {
    expect(workspaceDirName("/home/eduardo/projects/myproject")).toBe("-home-eduardo-projects-myproject-2c9fad78");
    expect(workspaceSlug("/home/user/my_project")).toBe("-home-user-my_project");
    expect(workspaceSlug("/home/user/My.Project")).toBe("-home-user-My-Project");
    expect(workspaceSlug("/tmp/ws one")).toBe("-tmp-ws-one");
    expect(workspaceSlug("/a/ -- /b/")).toBe("-a-b");
    expect(workspaceSlug("/srv/site.")).toBe("-srv-site-");
  });

  test("hash the absolute path with sha256 and keep 8 hex digits", () => {
    expect(workspaceHash("/home/eduardo/projects/myproject")).toBe("2c9fad78");
    expect(workspaceHash("/tmp/ws one")).toBe("628b488d");
  });

  test("normalise equivalent spellings of the same path", () => {
    const plain = workspaceDirName("/home/eduardo/projects/myproject");
    expect(workspaceDirName("/home/eduardo/projects/myproject/")).toBe(plain);
    expect(workspaceDirName("/home/eduardo/./projects/../projects/myproject")).toBe(plain);
  });

  test("keep letters and digits of any script", () => {
    expect(workspaceDirName("/home/user/proyectos/año")).toBe("-home-user-proyectos-año-b101626c");
    expect(workspaceSlug("/srv/数据/٣")).toBe("-srv-数据-٣");
  });

  test("separate paths whose slugs collide by the hash", () => {
    expect(workspaceSlug("/p/my-project")).toBe(workspaceSlug("/p/my/project"));
    expect(workspaceDirName("/p/my-project")).not.toBe(workspaceDirName("/p/my/project"));
  });

  test("cap the slug at 100 bytes: the first 100 of the literal slug", () => {
    const path = `/home/user/${"very-long-segment/".repeat(20)}`;
    const slug = workspaceSlug(path);
    expect(slug).toBe(
      path
        .replace(/\/$/, "")
        .replace(/[^A-Za-z0-9_]+/g, "-")
        .slice(0, 100),
    );
    expect(encoder.encode(slug).length).toBe(100);
  });

  test("cut long non-ASCII slugs on a character boundary", () => {
    const slug = workspaceSlug(`/a/${"测试".repeat(60)}`);
    const bytes = encoder.encode(slug).length;
    expect(bytes).toBeLessThanOrEqual(100);
    expect(bytes).toBeGreaterThan(95);
    expect(slug).toBe(`-a-${"测试".repeat(16)}`);
    expect(slug.includes("\uFFFD")).toBe(false);
  });

  test("name the root workspace by its one dash", () => {
    expect(workspaceDirName("/")).toBe("--8a5edab2");
  });
});
