/**
 * Issue 39, item 9: `sessions show --tree` of a crafted session file stays
 * linear in the file: 15,000 nested branch points draw without overflowing
 * the stack and with bounded indentation (3,000 of them printed 67 MB for
 * a 1.3 MB file), and 50,000 root messages do not copy an array per child
 * (690 MB).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Instance, type Started } from "../support/instance.ts";

let inst: Instance | undefined;
afterEach(() => {
  inst?.dispose();
  inst = undefined;
});

/** Writes session `id` into the workspace's session folder, as `sessions import` would file it; returns the id. */
async function craftedSession(
  current: Instance,
  id: string,
  messages: Array<{ id: string; parentId: string | null; text: string }>,
): Promise<string> {
  const header = {
    kind: "header",
    version: 1,
    id,
    createdAt: "2026-01-01T00:00:00.000Z",
    agent: "coder",
    model: "p/m",
    workdir: current.workspace,
  };
  const lines = [JSON.stringify(header)];
  for (const m of messages) {
    lines.push(
      JSON.stringify({
        kind: "message",
        id: m.id,
        parentId: m.parentId,
        createdAt: "2026-01-01T00:00:01.000Z",
        role: "user",
        blocks: [{ type: "text", text: m.text }],
      }),
    );
  }
  const file = join(current.root, `${id}.jsonl`);
  writeFileSync(file, `${lines.join("\n")}\n`);
  const r = await current.run(["sessions", "import", file]);
  expect(r.stderr).toContain(`imported session ${id}`);
  expect(r.code).toBe(0);
  return id;
}

/** The peak resident memory of a running binary, in MB, read from /proc until it ends (VmHWM only grows). */
async function peakMb(run: Started): Promise<{ code: number | null; stdout: string; stderr: string; peak: number }> {
  let peak = 0;
  let done = false;
  const result = run.done.then((r) => {
    done = true;
    return r;
  });
  while (!done) {
    try {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${run.pid}/status`, "utf8"));
      if (hwm) peak = Math.max(peak, Number(hwm[1]) / 1024);
    } catch {
      // ended between two reads
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { ...(await result), peak };
}

describe("sessions show --tree of a crafted file (issue 39, item 9)", () => {
  test("15,000 nested branch points: drawn whole, no stack overflow, indentation bounded", async () => {
    inst = new Instance();
    const depth = 15_000;
    const messages: Array<{ id: string; parentId: string | null; text: string }> = [
      { id: "m0", parentId: null, text: "root" },
    ];
    for (let i = 1; i <= depth; i++) {
      messages.push({ id: `m${i}`, parentId: `m${i - 1}`, text: `deeper ${i}` });
      messages.push({ id: `b${i}`, parentId: `m${i - 1}`, text: `aside ${i}` });
    }
    const id = await craftedSession(inst, "01jqdeeptree00000000000000", messages);
    const r = await inst.run(["sessions", "show", id, "--tree"]);
    expect(r.stderr).not.toContain("Maximum call stack");
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n");
    const drawn = lines.filter((l) => / (m|b)\d+ {2}user: /.test(l));
    expect(drawn.length).toBe(2 * depth + 1);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(140);
    expect(r.stdout).toContain("[+");
    // The deepest aside is still named, with its words.
    expect(r.stdout).toContain(`b${depth}  user: aside ${depth}`);
  });

  test("50,000 root messages: every one drawn, in a bounded memory", async () => {
    inst = new Instance();
    const count = 50_000;
    const messages = Array.from({ length: count }, (_, i) => ({ id: `r${i}`, parentId: null, text: `root ${i}` }));
    const id = await craftedSession(inst, "01jqmanyroots0000000000000", messages);
    const r = await peakMb(inst.start(["sessions", "show", id, "--tree"]));
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n").filter((l) => / r\d+ {2}user: root /.test(l)).length).toBe(count);
    // 130 MB measured here (the same binary before the fix: 360 MB, and 36 s of copying).
    expect(r.peak).toBeLessThan(250);
  });
});
