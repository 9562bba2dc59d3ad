/**
 * Issue 39, item 4: a workspace file whose name holds an escape sequence
 * (`a<ESC>]0;TITLE<BEL>b.txt`; an OSC 52 name would write the clipboard)
 * never reaches the terminal raw through the full-screen chat's `@`
 * completion: in a real tmux, the pane's title stays and no byte of the
 * sequence is written.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { scenario, type Scenario } from "../support/scenario.ts";
import { hasTmux, Terminal } from "../support/tmux.ts";

setDefaultTimeout(60_000);

let s: Scenario | undefined;
let term: Terminal | undefined;
afterEach(async () => {
  term?.dispose();
  term = undefined;
  await s?.dispose();
  s = undefined;
});

describe("escape sequences in file names (issue 39, item 4)", () => {
  test("@ completion never puts a file name's escape sequence into the editor or the echoed prompt", async () => {
    if (!hasTmux()) throw new Error("this test needs tmux (apt-get install -y tmux)");
    s = await scenario();
    s.inst.file("a\u001b]0;pwned-title\u0007b.txt", "trap\n");
    s.inst.file("a\u001b]52;c;cHduZWQ=\u0007c.txt", "clipboard trap\n");
    s.inst.file("another.txt", "plain\n");
    s.server.script({ text: "Looked." });
    term = Terminal.start(s.inst, {
      fullScreen: true,
      width: 80,
      height: 24,
      env: { NO_COLOR: "1" },
      args: ["-a", "coder"],
    });
    const t = term;
    await t.waitFor(() => /(^|\n)agent coder · model /.test(t.screen()));
    const title = t.title();
    t.record();
    t.type("look at @a");
    // The suggestions are up (a binary that offers the trap lists it first, its label escaped).
    await t.waitFor(() => t.screen().includes("another.txt") || t.screen().includes("pwned-title"));
    const offered = t.screen();
    t.keys("Tab");
    await t.waitFor(() => /look at @\S/.test(t.screen()));
    t.keys("Enter");
    await t.waitFor("Looked.");
    expect(t.title()).toBe(title);
    expect(t.title()).not.toContain("pwned");
    const recorded = t.recorded();
    expect(recorded).not.toContain("pwned-title");
    expect(recorded).not.toContain("]52;");
    // Names with control characters are not offered at all; the plain one is completed and attached.
    expect(offered).not.toContain("pwned-title");
    expect(t.history()).toContain("look at @another.txt");
    expect(JSON.stringify(s.server.requests[0]!.body)).toContain("plain");
  });
});
