import { describe, expect, test } from "bun:test";
import { answerConfirm, createTerminalFrontEnd, type TerminalStreams } from "../../src/ui/index.ts";

function streams(tty: boolean): TerminalStreams & { err: string[]; out: string[] } {
  const err: string[] = [];
  const out: string[] = [];
  return {
    err,
    out,
    stderr: { write: (t: string) => err.push(t), isTTY: tty },
    stdin: { isTTY: tty },
    stdout: { write: ((t: string) => out.push(t)) as never },
  };
}

describe("the terminal front end", () => {
  test("log and process output go to stderr, never stdout", () => {
    const s = streams(false);
    const fe = createTerminalFrontEnd({ autoApprove: false, streams: s });
    fe.log("working");
    fe.output("stdout", "partial");
    fe.output("stderr", " line\n");
    fe.notify({ title: "Build", body: "done" });
    expect(s.err.join("")).toBe("working\npartial line\nnotice: Build: done\n");
    expect(s.out).toEqual([]);
  });

  test("confirm answers from the auto-approve setting when there is no terminal", async () => {
    expect(
      await createTerminalFrontEnd({ autoApprove: true, streams: streams(false) }).confirm({ title: "t", body: "b" }),
    ).toBe(true);
    expect(
      await createTerminalFrontEnd({ autoApprove: false, streams: streams(false) }).confirm({ title: "t", body: "b" }),
    ).toBe(false);
  });

  test("auto-approve answers true even on a terminal, without asking", async () => {
    const s = streams(true);
    expect(await answerConfirm({ title: "t", body: "b" }, { autoApprove: true, streams: s })).toBe(true);
    expect(s.err).toEqual([]);
  });
});
