/**
 * Escape sequences in text from outside Rienda (what a tool logs or prints,
 * a command's output, a tool's result, a hook's notice, the model's answer)
 * never reach the terminal as instructions: in a real terminal (tmux) the
 * window keeps its title, nothing is cleared, and every control character
 * is shown as `\x1b`. Where no person reads (a piped stdout, --json, the
 * session file, what the model is sent) the bytes stay exactly as they came.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { jsonEvents, scenario, toolResultsOf, type Scenario } from "../support/scenario.ts";
import { readEntries, sessionFile, sessionIdFrom } from "../support/session-reader.ts";
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

const ESC = "\u001b";
const BEL = "\u0007";
/** Every control character a hostile text could use, besides tab and line feed. */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** A tool that sends escape sequences through every channel a tool has. */
const NOISY = String.raw`module.exports = {
  description: "noisy",
  parameters: { type: "object" },
  execute(ctx) {
    ctx.log("log \x1b]0;pwned-log\x07 end");
    console.log("console \x1b[2J end");
    process.stdout.write("stdout-write \x1b]52;c;cHduZWQ=\x07 end\n");
    ctx.notify({ title: "note \x1b[8m", body: "hidden\x1b[0m" });
    ctx.system.exec("printf 'exec \\033]0;pwned-exec\\007 c1 \\302\\233 end\\n'");
    return { text: "result \x1b[2J end", isError: true };
  },
};
`;

const HOOK = String.raw`module.exports = { beforeRun(ctx) { ctx.notify({ title: "hook \x1b]0;pwned-hook\x07", body: "b" }); } };`;

const SHELL_COMMAND = String.raw`printf 'shell \033]0;pwned-shell\007 \033[2J end\n'`;
const ANSWER = `answer ${ESC}]0;pwned-answer${BEL} ${ESC}[2J end`;

/** How each of them reads on the screen (and on a piped stderr). */
const SHOWN = [
  String.raw`notice: hook \x1b]0;pwned-hook\x07: b`,
  String.raw`shell \x1b]0;pwned-shell\x07 \x1b[2J end`,
  String.raw`log \x1b]0;pwned-log\x07 end`,
  String.raw`console \x1b[2J end`,
  String.raw`stdout-write \x1b]52;c;cHduZWQ=\x07 end`,
  String.raw`notice: note \x1b[8m: hidden\x1b[0m`,
  String.raw`exec \x1b]0;pwned-exec\x07 c1 \x9b end`,
  String.raw`tool failed: result \x1b[2J end`,
];

async function noisyScenario(): Promise<Scenario> {
  const scene = await scenario({ agentFrontmatter: "tools: [shell, noisy]\nhooks: [announce]" });
  scene.inst.tool("noisy", NOISY);
  scene.inst.hook("announce", HOOK);
  scene.server.script(
    {
      toolCalls: [
        { id: "c1", name: "shell", arguments: { command: SHELL_COMMAND } },
        { id: "c2", name: "noisy", arguments: {} },
      ],
    },
    { text: ANSWER },
  );
  return scene;
}

describe("rienda run in a terminal", () => {
  test("every control character is shown, none acted on: the title stays, nothing is cleared", async () => {
    if (!hasTmux()) throw new Error("this test needs tmux (apt-get install -y tmux)");
    s = await noisyScenario();
    // The prompt is read from the terminal, so recording starts before anything of the run is written.
    term = Terminal.start(s.inst, { args: ["run", "-a", "coder", "-p", "-"] });
    const title = term.title();
    term.record();
    term.line("go");
    term.keys("C-d");
    expect(await term.exitCode()).toBe(0);
    const screen = term.history();
    // Nothing was cleared: the first line is still there.
    expect(screen).toContain("session: ");
    for (const line of SHOWN) expect(screen).toContain(line);
    // The answer on stdout is a terminal too: shown, not acted on.
    expect(screen).toContain(String.raw`answer \x1b]0;pwned-answer\x07 \x1b[2J end`);
    expect(term.title()).toBe(title);
    expect(term.title()).not.toContain("pwned");
    // Not one control character reached the terminal but line ends (NO_COLOR: Rienda's own lines have no colour).
    expect(term.recorded().replace(/\r\n/g, "\n")).not.toMatch(CONTROLS);
  });

  test("rienda tool run: the result on a terminal is shown the same way", async () => {
    if (!hasTmux()) throw new Error("this test needs tmux (apt-get install -y tmux)");
    s = await scenario();
    s.inst.tool("noisy", NOISY);
    term = Terminal.start(s.inst, { args: ["tool", "run", "noisy"] });
    const title = term.title();
    expect(await term.exitCode()).toBe(1);
    const screen = term.history();
    expect(screen).toContain(String.raw`log \x1b]0;pwned-log\x07 end`);
    expect(screen).toContain(String.raw`notice: note \x1b[8m: hidden\x1b[0m`);
    expect(screen).toContain(String.raw`result \x1b[2J end`);
    expect(term.title()).toBe(title);
  });
});

describe("where no person reads, the bytes stay as they came", () => {
  test("piped stdout gets the answer exactly; stderr, read by people, shows the control characters", async () => {
    s = await noisyScenario();
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${ANSWER}\n`);
    for (const line of SHOWN) expect(r.stderr).toContain(line);
    expect(r.stderr).not.toMatch(CONTROLS);
    // What the model was sent, and the session, keep the bytes.
    const results = toolResultsOf(s.server.requests[1]!);
    expect(results[0]).toContain(`shell ${ESC}]0;pwned-shell${BEL} ${ESC}[2J end`);
    expect(results[1]).toBe(`result ${ESC}[2J end`);
    const entries = readEntries(sessionFile(s.inst.home, sessionIdFrom(r.stderr)));
    expect(JSON.stringify(entries)).toContain(JSON.stringify(ANSWER));
    expect(JSON.stringify(entries)).toContain(JSON.stringify(`result ${ESC}[2J end`));
  });

  test("--json carries every text as it came, every control character escaped by JSON (C1 too)", async () => {
    s = await noisyScenario();
    const r = await s.inst.run(["run", "-a", "coder", "-p", "go", "--json"]);
    expect(r.code).toBe(0);
    // Safe to show on a terminal: not one raw control character, not even a C1 CSI (JSON.stringify leaves those).
    expect(r.stdout).not.toMatch(CONTROLS);
    expect(r.stdout).toContain(String.raw`c1 \u009b end`);
    const events = jsonEvents(r.stdout);
    const outputs = events
      .filter((e) => e.type === "tool_output")
      .map((e) => e.text as string)
      .join("");
    expect(outputs).toContain(`exec ${ESC}]0;pwned-exec${BEL} c1 \u009b end`);
    expect(outputs).toContain(`log ${ESC}]0;pwned-log${BEL} end`);
    expect(outputs).toContain(`shell ${ESC}]0;pwned-shell${BEL} ${ESC}[2J end`);
    expect(events.find((e) => e.type === "notice" && String(e.title).startsWith("note"))).toMatchObject({
      title: `note ${ESC}[8m`,
      body: `hidden${ESC}[0m`,
    });
    expect(events.find((e) => e.type === "message_end" && e.text !== "")).toMatchObject({ text: ANSWER });
  });

  test("rienda tool run piped: the result is exact", async () => {
    s = await scenario();
    s.inst.tool("noisy", NOISY);
    const r = await s.inst.run(["tool", "run", "noisy"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`result ${ESC}[2J end\n`);
    expect(r.stderr).toContain(String.raw`log \x1b]0;pwned-log\x07 end`);
    expect(r.stderr).not.toMatch(CONTROLS);
  });
});

describe("the chat", () => {
  test("the streamed answer, tool output and results show their control characters; the title stays", async () => {
    if (!hasTmux()) throw new Error("this test needs tmux (apt-get install -y tmux)");
    s = await noisyScenario();
    term = Terminal.start(s.inst, { args: ["-a", "coder"] });
    const title = term.title();
    await term.waitForPrompt();
    term.line("go");
    const screen = await term.waitForPrompt(1);
    expect(screen).toContain("rienda ");
    expect(screen).toContain(String.raw`shell \x1b]0;pwned-shell\x07 \x1b[2J end`);
    expect(screen).toContain(String.raw`log \x1b]0;pwned-log\x07 end`);
    expect(screen).toContain(String.raw`exec \x1b]0;pwned-exec\x07 c1 \x9b end`);
    expect(screen).toContain(String.raw`hidden\x1b[0m`);
    expect(screen).toContain(String.raw`answer \x1b]0;pwned-answer\x07 \x1b[2J end`);
    expect(term.title()).toBe(title);
  });
});
