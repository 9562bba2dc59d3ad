/**
 * Every stdin that is not a terminal is data for the prompt
 * (docs/pipelines.md, "Piped stdin"): a pipe, a regular file, a socket (what
 * Node's and Bun's child_process give a child, an ssh session, a systemd
 * socket) and a character device such as /dev/null. A regular file is read
 * from its current offset and left at its end, as `cat` would.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { BINARY } from "../support/instance.ts";
import { scenario, type Scenario } from "../support/scenario.ts";
import { sessionFiles } from "../support/session-reader.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

/** The text of the last user message of Chat Completions request `index`. */
function userText(index = 0): unknown {
  const messages = (s!.server.requests[index]!.body as { messages: { role: string; content: unknown }[] }).messages;
  return messages.filter((m) => m.role === "user").pop()?.content;
}

/** What a program run to its end printed. */
interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a program in the workspace with the instance's environment (asynchronously: the provider lives in this process). */
function runProgram(command: string, args: string[]): Promise<Ran> {
  const child = spawn(command, args, {
    cwd: s!.inst.workspace,
    env: s!.inst.env({ RIENDA: BINARY }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  return new Promise((resolve) => child.on("close", (status) => resolve({ status, stdout, stderr })));
}

/** A Node program (real Node, not Bun) driving the binary, whose path is $RIENDA. */
const node = (source: string): Promise<Ran> => runProgram("node", ["-e", source]);
/** A shell command line; the binary is "$RIENDA". */
const shell = (line: string): Promise<Ran> => runProgram("sh", ["-c", line]);

describe("a socket on stdin is data", () => {
  test("a Bun program's child_process with input: the data is sent before the prompt", async () => {
    s = await scenario();
    s.server.script({ text: "ok" });
    // The support's `stdin` option is Bun's child_process pipe: a socket pair.
    const r = await s.inst.run(["run", "-a", "coder", "-p", "summarize"], { stdin: "socket data\n" });
    expect(r.stderr).not.toContain("rienda:");
    expect(r.code).toBe(0);
    expect(userText()).toBe('<document name="stdin">\nsocket data\n</document>\n\nsummarize');
  });

  test("a Node program's execFileSync with input: the data is sent", async () => {
    s = await scenario();
    s.server.script({ text: "three bullets" });
    const r = await node(`
      const { execFileSync } = require("node:child_process");
      const out = execFileSync(process.env.RIENDA, ["run", "-a", "coder", "-p", "summarize"], { input: "from node\\n" });
      process.stdout.write(out);
    `);
    expect(r.stderr).not.toContain("rienda:");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("three bullets\n");
    expect(userText()).toBe('<document name="stdin">\nfrom node\n</document>\n\nsummarize');
  });

  test("binary data on a socket is refused like on a pipe: nothing is sent or written", async () => {
    s = await scenario();
    const r = await s.inst.run(["run", "-a", "coder", "-p", "summarize"], { stdin: "A\u0000B" });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("rienda: stdin: cannot be attached: it holds binary data (a NUL byte at offset 1)");
    expect(s.server.requests).toHaveLength(0);
    expect(sessionFiles(s.inst.home)).toHaveLength(0);
  });

  test("a socket that stays quiet gets the waiting line, and is still waited for", async () => {
    s = await scenario();
    s.server.script({ text: "ok" });
    const r = await node(`
      const { spawn } = require("node:child_process");
      const child = spawn(process.env.RIENDA, ["run", "-a", "coder", "-p", "summarize"], { stdio: ["pipe", "inherit", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (d) => {
        stderr += d;
        if (stderr.includes("waiting for stdin")) child.stdin.end("late data");
      });
      child.on("close", (code) => { process.stderr.write(stderr); process.exit(code); });
    `);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain(
      "rienda: waiting for stdin: it is not a terminal and nothing has come yet; it is read as data for the prompt; run with --no-stdin (or < /dev/null) if it is not meant for Rienda",
    );
    expect(userText()).toBe('<document name="stdin">\nlate data\n</document>\n\nsummarize');
  });

  test("--no-stdin leaves a socket unread", async () => {
    s = await scenario();
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "--no-stdin", "-p", "summarize"], { stdin: "socket data" });
    expect(r.code).toBe(0);
    expect(userText()).toBe("summarize");
  });
});

describe("a character device on stdin", () => {
  test("/dev/null adds nothing and is not waited for", async () => {
    s = await scenario();
    s.server.script({ text: "ok" });
    const r = await shell('"$RIENDA" run -a coder -p summarize < /dev/null');
    expect(r.stderr).not.toContain("rienda:");
    expect(r.status).toBe(0);
    expect(userText()).toBe("summarize");
  });

  test("a device that gives binary data is refused as binary", async () => {
    s = await scenario();
    const r = await shell('"$RIENDA" run -a coder -p summarize < /dev/zero');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("rienda: stdin: cannot be attached: it holds binary data (a NUL byte at offset 0)");
    expect(s.server.requests).toHaveLength(0);
  });
});

describe("a regular file on stdin is read from its offset, and left at its end", () => {
  test("(read -r x; rienda run ...; cat) < list.txt: Rienda gets what the shell had not read, cat gets nothing", async () => {
    s = await scenario();
    s.server.script({ text: "ok" });
    s.inst.file("list.txt", "first\nsecond\nthird\n");
    const r = await shell(
      '(read -r x; echo "shell: $x"; "$RIENDA" run -a coder -p summarize; echo "cat: [$(cat)]") < list.txt',
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("shell: first\nok\ncat: []\n");
    expect(userText()).toBe('<document name="stdin">\nsecond\nthird\n</document>\n\nsummarize');
  });

  test("-p - reads the prompt from the offset too", async () => {
    s = await scenario();
    s.server.script({ text: "ok" });
    s.inst.file("list.txt", "skipped\nthe prompt\n");
    const r = await shell('(read -r x; "$RIENDA" run -a coder -p -; echo "cat: [$(cat)]") < list.txt');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("ok\ncat: []\n");
    expect(userText()).toBe("the prompt\n");
  });

  test("the while-read pitfall of docs/pipelines.md: without --no-stdin the first run takes the rest of the list and the loop ends", async () => {
    s = await scenario();
    s.server.script({ text: "about a" });
    s.inst.file("a.md", "A\n");
    s.inst.file("b.md", "B\n");
    s.inst.file("c.md", "C\n");
    s.inst.file("files.txt", "a.md\nb.md\nc.md\n");
    const r = await shell(
      'while read -r f; do printf "%s: " "$f"; "$RIENDA" run -a coder -f "$f" -p "In one line: what is this document about?"; done < files.txt',
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("a.md: about a\n");
    expect(s.server.requests).toHaveLength(1);
    expect(userText()).toBe(
      '<document name="stdin">\nb.md\nc.md\n</document>\n\n<document name="a.md">\nA\n</document>\n\nIn one line: what is this document about?',
    );
  });
});
