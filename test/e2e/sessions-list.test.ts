/**
 * `rienda sessions` on a HOME whose session files are written by hand from
 * contract.md §6 (as Go Rienda wrote them), never by our code.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Instance } from "../support/instance.ts";

/** The workspace directory name of §6: slug of letters/digits/_ joined by "-", then the sha256 prefix. */
function workspaceDirName(path: string): string {
  const slug = path.replace(/[^\p{L}\p{Nd}_]+/gu, "-");
  return `${slug}-${createHash("sha256").update(path).digest("hex").slice(0, 8)}`;
}

interface HandSession {
  id: string;
  agent?: string;
  model?: string;
  createdAt: string;
  /** Extra lines after the header, as objects (or raw strings). */
  lines: Array<Record<string, unknown> | string>;
  /** A subagent's session: the session and call that started it. */
  parent?: { session: string; call: string };
}

function message(
  id: string,
  parentId: string | null,
  createdAt: string,
  role: "user" | "assistant",
  text: string,
): Record<string, unknown> {
  return { kind: "message", id, parentId, createdAt, role, blocks: [{ type: "text", text }] };
}

describe("rienda sessions", () => {
  let inst: Instance;
  const write = (workspace: string, s: HandSession) => {
    const header = {
      kind: "header",
      version: 1,
      id: s.id,
      createdAt: s.createdAt,
      agent: s.agent ?? "coder",
      model: s.model ?? "local/llama",
      workdir: workspace,
      ...(s.parent ? { parentSession: s.parent.session, parentCallId: s.parent.call } : {}),
    };
    const body = [header, ...s.lines].map((l) => (typeof l === "string" ? l : `${JSON.stringify(l)}\n`)).join("");
    return inst.write(inst.riendaPath("sessions", workspaceDirName(workspace), `${s.id}.jsonl`), body);
  };
  beforeEach(() => {
    inst = new Instance();
    write(inst.workspace, {
      id: "01jq0000000000000000000001",
      createdAt: "2025-03-01T09:00:00Z",
      lines: [
        message("m1", null, "2025-03-01T09:00:01Z", "user", "Fix the parser\nwith details on line two"),
        message("m2", "m1", "2025-03-01T09:00:05Z", "assistant", "Done."),
      ],
    });
    write(inst.workspace, {
      id: "01jq0000000000000000000002",
      createdAt: "2025-03-02T09:00:00Z",
      lines: [
        message("m1", null, "2025-03-02T09:00:01Z", "user", "Write the release notes"),
        {
          kind: "agent",
          id: "s1",
          parentId: "m1",
          createdAt: "2025-03-02T09:00:02Z",
          agent: "writer",
          previousAgent: "coder",
        },
        {
          kind: "model",
          id: "s2",
          parentId: "m1",
          createdAt: "2025-03-02T09:00:02Z",
          model: "openai/gpt-4o",
          previousModel: "local/llama",
        },
        { kind: "future-kind", whatever: true },
        message("m2", "m1", "2025-03-02T09:00:03Z", "assistant", "Notes written."),
        message("m3", "m2", "2025-03-02T09:00:04Z", "user", "Shorter please"),
        { kind: "title", createdAt: "2025-03-05T12:30:00Z", title: "Release notes" },
        '{"kind":"message","id":"m4","parentId":"m3","createdAt":"2025-03-06T00:00:00Z","role":"assis',
      ],
    });
    write(inst.workspace, {
      id: "01jq0000000000000000000003",
      createdAt: "2025-03-03T09:00:00Z",
      lines: [message("m1", null, "2025-03-03T09:00:01Z", "user", "Third session")],
    });
  });
  afterEach(() => inst.dispose());

  test("prints a table of this workspace's sessions, newest first", async () => {
    const r = await inst.run(["sessions"], { env: { TZ: "UTC" } });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const rows = r.stdout
      .trimEnd()
      .split("\n")
      .map((l) => l.split(/ {2,}/));
    expect(rows).toEqual([
      ["ID", "UPDATED", "AGENT", "MODEL", "MESSAGES", "TOKENS", "COST", "TITLE"],
      ["01jq0000000000000000000002", "2025-03-05 12:30", "writer", "openai/gpt-4o", "3", "-", "-", "Release notes"],
      ["01jq0000000000000000000003", "2025-03-03 09:00", "coder", "local/llama", "1", "-", "-", "Third session"],
      ["01jq0000000000000000000001", "2025-03-01 09:00", "coder", "local/llama", "2", "-", "-", "Fix the parser"],
    ]);
  });

  test("--json prints one JSON array with every field", async () => {
    const r = await inst.run(["sessions", "--json"]);
    expect(r.code).toBe(0);
    const list = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(list.map((s) => s.id)).toEqual([
      "01jq0000000000000000000002",
      "01jq0000000000000000000003",
      "01jq0000000000000000000001",
    ]);
    expect(list[0]).toEqual({
      id: "01jq0000000000000000000002",
      updatedAt: "2025-03-05T12:30:00Z",
      createdAt: "2025-03-02T09:00:00Z",
      agent: "writer",
      model: "openai/gpt-4o",
      title: "Release notes",
      messageCount: 3,
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      cost: null,
      workdir: inst.workspace,
      path: inst.riendaPath("sessions", workspaceDirName(inst.workspace), "01jq0000000000000000000002.jsonl"),
      problem: null,
    });
  });

  test("-C lists another workspace's sessions, and only those", async () => {
    const other = join(inst.root, "other place");
    mkdirSync(other);
    write(other, {
      id: "01jq0000000000000000000009",
      createdAt: "2025-04-01T00:00:00Z",
      lines: [message("m1", null, "2025-04-01T00:00:01Z", "user", "Elsewhere")],
    });
    const r = await inst.run(["sessions", "-C", other, "--json"]);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as Array<{ title: string }>).map((s) => s.title)).toEqual(["Elsewhere"]);
    const here = await inst.run(["sessions", "--json"]);
    expect((JSON.parse(here.stdout) as Array<{ title: string }>).map((s) => s.title)).not.toContain("Elsewhere");
  });

  test("says so on stderr and exits 0 when the workspace has no sessions", async () => {
    const empty = join(inst.root, "empty");
    mkdirSync(empty);
    const plain = await inst.run(["sessions", "-C", empty]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe("");
    expect(plain.stderr).toContain("no sessions");
    const json = await inst.run(["sessions", "-C", empty, "--json"]);
    expect(json.code).toBe(0);
    expect(json.stdout).toBe("[]\n");
  });

  test("a missing -C directory is a clear error with exit 1", async () => {
    const r = await inst.run(["sessions", "-C", join(inst.root, "does-not-exist")]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`rienda: workdir "${join(inst.root, "does-not-exist")}" does not exist\n`);
  });

  test("an unknown option or a stray argument is refused with exit 1", async () => {
    const flag = await inst.run(["sessions", "--every"]);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain("unknown option --every");
    const extra = await inst.run(["sessions", "now"]);
    expect(extra.code).toBe(1);
    expect(extra.stderr).toContain('unexpected argument "now"');
  });

  test("--all: a tree of subagents' sessions, a child whose parent is gone, and headers naming each other", async () => {
    const child = (id: string, parent: string, day: string, text: string) =>
      write(inst.workspace, {
        id,
        agent: "reviewer",
        createdAt: `2025-03-${day}T09:00:00Z`,
        parent: { session: parent, call: "r1" },
        lines: [message("m1", null, `2025-03-${day}T09:00:01Z`, "user", text)],
      });
    child("01jq0000000000000000000011", "01jq0000000000000000000001", "10", "Child one");
    child("01jq0000000000000000000012", "01jq0000000000000000000011", "11", "Grandchild");
    child("01jq0000000000000000000013", "01jq0000000000000000000001", "12", "Child two");
    child("01jq0000000000000000000014", "01jq00000000000000000000ff", "13", "Orphan");
    child("01jq0000000000000000000015", "01jq0000000000000000000016", "14", "Circle A");
    child("01jq0000000000000000000016", "01jq0000000000000000000015", "15", "Circle B");
    const plain = await inst.run(["sessions"]);
    expect(
      plain.stdout
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => l.split(/\s+/)[0]),
    ).toEqual(["01jq0000000000000000000002", "01jq0000000000000000000003", "01jq0000000000000000000001"]);
    const all = await inst.run(["sessions", "--all"]);
    expect(all.code).toBe(0);
    const rows = all.stdout
      .split("\n")
      .slice(1, -1)
      .map((l) => l.match(/^ *\S+/)![0]);
    // Newest first at the top level (by their last entry), each child under its parent.
    expect(rows).toEqual([
      "01jq0000000000000000000016",
      "  01jq0000000000000000000015",
      "01jq0000000000000000000014",
      "01jq0000000000000000000002",
      "01jq0000000000000000000003",
      "01jq0000000000000000000001",
      "  01jq0000000000000000000011",
      "    01jq0000000000000000000012",
      "  01jq0000000000000000000013",
    ]);
  });

  test("a file cut off while its header was written is left out instead of failing the listing", async () => {
    inst.write(
      inst.riendaPath("sessions", workspaceDirName(inst.workspace), "01jq0000000000000000000004.jsonl"),
      '{"kind":"header","vers',
    );
    const r = await inst.run(["sessions", "--json"]);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as unknown[]).length).toBe(3);
  });
});
