/**
 * One writer per session: the lock taken by openSession and createSession,
 * refused while its owner lives, taken over once the owner is gone, and the
 * torn-tail repair done under it at open.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, closeSync, existsSync, openSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { cutTornTail } from "../../src/sessions/cut-torn-tail.ts";
import { createSession, openSession, type SessionFile } from "../../src/sessions/index.ts";
import { tempHome } from "./helpers.ts";

const user = (text: string) => ({ role: "user" as const, blocks: [{ type: "text" as const, text }] });

function lockOf(session: SessionFile): string {
  return session.path.replace(/\.jsonl$/, ".lock");
}

/** The pid of a process that has already ended. */
function deadPid(): number {
  const child = spawnSync("true");
  return child.pid!;
}

describe("the session lock", () => {
  let t: ReturnType<typeof tempHome>;
  const open: SessionFile[] = [];
  beforeEach(() => (t = tempHome()));
  afterEach(() => {
    for (const s of open.splice(0)) s.close();
    t.dispose();
  });
  const keep = (s: SessionFile) => {
    open.push(s);
    return s;
  };

  test("a session open here cannot be opened again until it is closed; the error names the pid and the lock file", () => {
    const s = keep(createSession({ home: t.home, workdir: t.workdir, agent: "a", model: "p/m" }));
    expect(existsSync(lockOf(s))).toBe(true);
    expect(() => openSession({ home: t.home, id: s.id })).toThrow(
      `session ${s.id} is open in another rienda (pid ${process.pid}); wait for it to finish or stop it, then try again. If no rienda runs as pid ${process.pid}, delete ${lockOf(s)}`,
    );
    s.close();
    expect(existsSync(lockOf(s))).toBe(false);
    const again = keep(openSession({ home: t.home, id: s.id }));
    expect(again.id).toBe(s.id);
  });

  test("a closed session refuses writes", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "a", model: "p/m" });
    s.close();
    expect(() => s.appendMessage(user("late"))).toThrow("was closed");
  });

  test("a lock held by a live process is refused; once that process is gone it is taken over", async () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "a", model: "p/m" });
    s.close();
    const holder = spawn("sleep", ["30"], { stdio: "ignore" });
    const pid = holder.pid!;
    writeFileSync(lockOf(s), JSON.stringify({ pid, host: hostname(), token: "theirs" }));
    expect(() => openSession({ home: t.home, id: s.id })).toThrow(`is open in another rienda (pid ${pid})`);
    const ended = new Promise((resolve) => holder.on("exit", resolve));
    holder.kill("SIGKILL");
    await ended;
    const taken = keep(openSession({ home: t.home, id: s.id }));
    expect(JSON.parse(readFileSync(lockOf(taken), "utf8"))).toMatchObject({ pid: process.pid, host: hostname() });
  });

  test("a stale lock (dead pid, or this pid without this process holding it) is taken over", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "a", model: "p/m" });
    s.close();
    for (const pid of [deadPid(), process.pid]) {
      writeFileSync(lockOf(s), JSON.stringify({ pid, host: hostname(), token: "left-behind" }));
      const taken = openSession({ home: t.home, id: s.id });
      expect(JSON.parse(readFileSync(lockOf(taken), "utf8")).token).not.toBe("left-behind");
      taken.close();
    }
  });

  // Where /proc tells start times (Linux, as in CI); elsewhere pids alone decide.
  test.skipIf(!existsSync("/proc/self/stat"))(
    "a lock whose pid was reused by another process (its start time differs) is taken over; the same start time is refused",
    () => {
      const s = createSession({ home: t.home, workdir: t.workdir, agent: "a", model: "p/m" });
      s.close();
      const holder = spawn("sleep", ["30"], { stdio: "ignore" });
      try {
        const pid = holder.pid!;
        // Field 22 of /proc/<pid>/stat, after the parenthesised command name.
        const started = Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[19]);
        writeFileSync(lockOf(s), JSON.stringify({ pid, host: hostname(), processStart: started, token: "held" }));
        expect(() => openSession({ home: t.home, id: s.id })).toThrow(`is open in another rienda (pid ${pid})`);
        writeFileSync(lockOf(s), JSON.stringify({ pid, host: hostname(), processStart: started - 1, token: "old" }));
        const taken = keep(openSession({ home: t.home, id: s.id }));
        expect(JSON.parse(readFileSync(lockOf(taken), "utf8"))).toMatchObject({ pid: process.pid, host: hostname() });
        expect(JSON.parse(readFileSync(lockOf(taken), "utf8")).token).not.toBe("old");
      } finally {
        holder.kill("SIGKILL");
      }
    },
  );

  test("a torn tail is cut when the session is opened, before anything is appended", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "a", model: "p/m" });
    s.appendMessage(user("whole"));
    s.close();
    const whole = statSync(s.path).size;
    appendFileSync(s.path, '{"kind":"message","id":"x","par');
    const reopened = keep(openSession({ home: t.home, id: s.id }));
    expect(statSync(s.path).size).toBe(whole);
    expect(reopened.messages()).toEqual([user("whole")]);
  });

  test("the torn tail is cut only if the file still has the size that was read", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "a", model: "p/m" });
    s.appendMessage(user("whole"));
    s.close();
    const whole = statSync(s.path).size;
    appendFileSync(s.path, '{"kind":"mess');
    const read = statSync(s.path).size;
    // Another writer (one that ignores the lock) appends between the read and the cut.
    appendFileSync(s.path, 'age","id":"late"}\n');
    const after = readFileSync(s.path);
    const fd = openSync(s.path, "r+");
    try {
      expect(cutTornTail(fd, read, whole)).toBe(false);
      expect(readFileSync(s.path)).toEqual(after);
      expect(cutTornTail(fd, after.length, whole)).toBe(true);
      expect(statSync(s.path).size).toBe(whole);
    } finally {
      closeSync(fd);
    }
  });
});
