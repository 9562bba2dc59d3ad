/**
 * Arguments are never guessed: surplus words are refused (with a hint to
 * quote the prompt), a prompt that starts with "-" can be given and is sent
 * as written, and the messages name the command once.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { RecordedRequest } from "../support/provider-server.ts";
import { scenario, type Scenario } from "../support/scenario.ts";
import { sessionFiles } from "../support/session-reader.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

/** The text of the last user message a Chat Completions request carried. */
function promptOf(request: RecordedRequest): string {
  const messages = (request.body as { messages: { role: string; content: unknown }[] }).messages;
  const last = messages.filter((m) => m.role === "user").at(-1)!;
  return typeof last.content === "string"
    ? last.content
    : (last.content as { text: string }[]).map((c) => c.text).join("");
}

describe("surplus words are refused", () => {
  test("run -p with an unquoted prompt: exit 1, a hint to quote it, nothing sent or written", async () => {
    s = await scenario();
    const r = await s.inst.run(["run", "-a", "coder", "-p", "count", "the", "words", "in", "notes.txt"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      'rienda: run: unexpected argument "the" (a prompt of several words needs quotes: -p "count the words in notes.txt")\n',
    );
    expect(s.server.requests).toHaveLength(0);
    expect(sessionFiles(s.inst.home)).toHaveLength(0);
  });

  test("run --json with surplus words ends with run_end reason error", async () => {
    s = await scenario();
    const r = await s.inst.run(["run", "-a", "coder", "-p", "hello", "world", "--json"]);
    expect(r.code).toBe(1);
    const events = r.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; reason?: string; message?: string });
    expect(events.at(-1)).toMatchObject({ type: "run_end", reason: "error" });
    expect(events.at(-1)!.message).toContain('unexpected argument "world"');
    expect(s.server.requests).toHaveLength(0);
  });

  test("tool run NAME extra: exit 1, the tool does not run", async () => {
    s = await scenario();
    s.inst.tool(
      "mark",
      `module.exports = { description: "d", parameters: { type: "object" }, execute(ctx) { ctx.file.write("ran", "1"); return "ran"; } };`,
    );
    const r = await s.inst.run(["tool", "run", "mark", "extra", "--args", "{}"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe('rienda: tool run: unexpected argument "extra" (see rienda tool run --help)\n');
    expect(existsSync(join(s.inst.workspace, "ran"))).toBe(false);
  });

  test("every other command refuses words it does not take", async () => {
    s = await scenario();
    for (const args of [
      ["tool", "list", "x"],
      ["sessions", "x"],
      ["doctor", "x"],
      ["init", "x"],
      ["skill", "list", "x"],
    ]) {
      const r = await s.inst.run(args);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `rienda: ${args.slice(0, -1).join(" ")}: unexpected argument "x" (see rienda ${args.slice(0, -1).join(" ")} --help)\n`,
      );
    }
    expect(existsSync(join(s.inst.home, ".rienda", "agents", "starter.md"))).toBe(false);
  });

  test('an empty value (an unset variable) is refused: -s "" never starts a new session, -C "" never runs here', async () => {
    s = await scenario();
    for (const [flag, at] of [
      ["-s", 3],
      ["-C", 3],
      ["--config", 3],
    ] as const) {
      const args = ["run", "-a", "coder", flag, "", "-p", "continue"];
      const r = await s.inst.run(args);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`rienda: run: option ${args[at]} got an empty value (an unset variable in a script?)\n`);
    }
    expect(s.server.requests).toHaveLength(0);
    expect(sessionFiles(s.inst.home)).toHaveLength(0);
  });

  test("a flag given twice is refused", async () => {
    s = await scenario();
    const r = await s.inst.run(["run", "-a", "coder", "-p", "one", "--prompt", "two"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("rienda: run: options -p and --prompt given twice (see rienda run --help)\n");
    expect(s.server.requests).toHaveLength(0);
  });
});

describe("a prompt that starts with -", () => {
  for (const args of [["--prompt=-x"], ["-p", "--", "-x"], ["-p=-x"]]) {
    test(`${args.join(" ")} sends "-x"`, async () => {
      s = await scenario();
      s.server.script({ text: "ok" });
      const r = await s.inst.run(["run", "-a", "coder", ...args]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe("ok\n");
      expect(promptOf(s.server.requests[0]!)).toBe("-x");
    });
  }

  test('-p=x sends "x", never "=x"', async () => {
    s = await scenario();
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p=x"]);
    expect(r.code).toBe(0);
    expect(promptOf(s.server.requests[0]!)).toBe("x");
  });

  test("-p -x says how to give it, exit 1, nothing sent", async () => {
    s = await scenario();
    const r = await s.inst.run(["run", "-a", "coder", "-p", "-x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'rienda: run: option -p needs a value (for a value that starts with "-", write --prompt=-x or -p -- -x)\n',
    );
    expect(s.server.requests).toHaveLength(0);
  });

  test("a prompt with whitespace that starts with - (a Markdown list read into -p) is the prompt", async () => {
    s = await scenario();
    s.server.script({ text: "ok" });
    const prompt = "- fix the build\n- then the docs";
    const r = await s.inst.run(["run", "-a", "coder", "-p", prompt]);
    expect(r.stderr).not.toContain("needs a value");
    expect(r.code).toBe(0);
    expect(promptOf(s.server.requests[0]!)).toBe(prompt);
  });

  test("-p -- -h is a prompt, not a request for help", async () => {
    s = await scenario();
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "--", "-h"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("ok\n");
    expect(promptOf(s.server.requests[0]!)).toBe("-h");
  });
});

describe("wording", () => {
  test("an unknown option names the command once", async () => {
    s = await scenario();
    const r = await s.inst.run(["run", "-x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("rienda: run: unknown option -x (see rienda run --help)\n");
    const tool = await s.inst.run(["tool", "run", "shell", "--bogus"]);
    expect(tool.stderr).toBe("rienda: tool run: unknown option --bogus (see rienda tool run --help)\n");
  });

  test("rienda tool without a subcommand, or with an unknown one, says which exist", async () => {
    s = await scenario();
    const bare = await s.inst.run(["tool"]);
    expect(bare.code).toBe(1);
    expect(bare.stderr).toBe("rienda: tool: name a subcommand: list or run (see rienda tool --help)\n");
    const unknown = await s.inst.run(["tool", "frob"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('rienda: tool: unknown subcommand "frob" (list or run; see rienda tool --help)\n');
  });

  test("--help of a subcommand shows its whole name", async () => {
    s = await scenario();
    const r = await s.inst.run(["tool", "run", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("USAGE rienda tool run [OPTIONS] [NAME]");
    expect(r.stdout).not.toMatch(/USAGE tool run/);
  });

  test("--help lists what the command reads: a subcommand of sessions or auth has its own usage", async () => {
    s = await scenario();
    const show = await s.inst.run(["sessions", "show", "--help"]);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain("USAGE rienda sessions show [OPTIONS] [ID]");
    for (const flag of ["--json", "--markdown", "--tree", "--thinking", "-C, --workdir"])
      expect(show.stdout).toContain(flag);
    const set = await s.inst.run(["auth", "set", "-h"]);
    expect(set.stdout).toContain("USAGE rienda auth set [OPTIONS] [NAME]\n");
  });
});

describe("flags before the command", () => {
  test("a value flag of the chat takes the next word as its value, never as the command (--sandbox off run)", async () => {
    s = await scenario();
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["--sandbox", "off", "run", "-a", "coder", "-p", "hi"]);
    expect(r.stderr).not.toContain("unknown command");
    expect([r.code, r.stdout]).toEqual([0, "ok\n"]);
  });

  test("the same flag before and after the command is given twice", async () => {
    s = await scenario();
    const r = await s.inst.run(["-C", ".", "run", "-a", "coder", "-p", "hi", "--workdir", "."]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("rienda: run: options -C and --workdir given twice (see rienda run --help)\n");
    expect(s.server.requests).toHaveLength(0);
  });
});
