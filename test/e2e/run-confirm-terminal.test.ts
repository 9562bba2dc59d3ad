/**
 * ctx.confirm from `rienda run` and `rienda tool run` in a real terminal:
 * the question looks exactly as in the chat (`? title`, the body, `[y/N]`,
 * the answer on that line) and leaves nothing else drawn on the screen.
 */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { markedBlock } from "../support/doc-blocks.ts";
import { scenario, toolResultsOf, type Scenario } from "../support/scenario.ts";
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

const PUBLISH = `module.exports = {
  description: "Publishes the current branch.",
  parameters: { type: "object", properties: {}, additionalProperties: false },
  execute: function(ctx) {
    if (!ctx.confirm({ title: "Publish", body: "Push the current branch to origin?" })) return { text: "cancelled by the user", isError: true };
    return "pushed";
  },
};
`;

test("rienda run asks as the chat does; y answers yes, Enter no, and nothing is left over", async () => {
  if (!hasTmux()) throw new Error("this test needs tmux (apt-get install -y tmux)");
  s = await scenario({ agentFrontmatter: "tools: [publish]" });
  s.inst.tool("publish", PUBLISH);
  s.server.script({ toolCalls: [{ name: "publish", arguments: {} }] }, { text: "Done." });
  term = Terminal.start(s.inst, { args: ["run", "-a", "coder", "-p", "publish"] });
  await term.waitFor("[y/N]");
  term.keys("y");
  expect(await term.exitCode()).toBe(0);
  const screen = term.history();
  expect(screen).toContain("tool: publish {}\n? Publish\n  Push the current branch to origin?\n  [y/N] yes\nDone.");
  // The question as docs/tools.md shows it.
  expect(screen).toContain(
    markedBlock("docs/tools.md", "test/e2e/run-confirm-terminal.test.ts", "tools-confirm").trimEnd(),
  );
  // Asked once, drawn once: no redrawn frames or prompt-library leftovers.
  expect(screen.split("? Publish").length - 1).toBe(1);
  expect(screen.split("[y/N]").length - 1).toBe(1);
  expect(toolResultsOf(s.server.requests[1]!)).toEqual(["pushed"]);
});

test("rienda tool run asks the same way; Enter answers no", async () => {
  if (!hasTmux()) throw new Error("this test needs tmux (apt-get install -y tmux)");
  s = await scenario();
  s.inst.tool("publish", PUBLISH);
  term = Terminal.start(s.inst, { args: ["tool", "run", "publish"] });
  await term.waitFor("[y/N]");
  term.keys("Enter");
  expect(await term.exitCode()).toBe(1);
  expect(term.history().replace(/\s*Pane is dead[\s\S]*$/, "")).toBe(
    "? Publish\n  Push the current branch to origin?\n  [y/N] no\ncancelled by the user",
  );
});

test("a subagent's question is indented under the call that started it, as its tool lines are, at every level", async () => {
  if (!hasTmux()) throw new Error("this test needs tmux (apt-get install -y tmux)");
  s = await scenario({ agentFrontmatter: "agents: [releaser]" });
  s.inst.agent(
    "releaser",
    "---\ndescription: Releases.\nmodel: p/m\ntools: [publish]\nagents: [pusher]\n---\nYou release.\n",
  );
  s.inst.agent("pusher", "---\ndescription: Pushes.\nmodel: p/m\ntools: [publish]\n---\nYou push.\n");
  s.inst.tool("publish", PUBLISH);
  s.server.script(
    { toolCalls: [{ id: "r1", name: "agent__releaser", arguments: { prompt: "release" } }] },
    { toolCalls: [{ id: "p1", name: "publish", arguments: {} }] },
    { toolCalls: [{ id: "u1", name: "agent__pusher", arguments: { prompt: "push" } }] },
    { toolCalls: [{ id: "p2", name: "publish", arguments: {} }] },
    { text: "pushed" },
    { text: "released" },
    { text: "Done." },
  );
  term = Terminal.start(s.inst, { args: ["run", "-a", "coder", "-p", "release it"] });
  await term.waitFor("[y/N]");
  term.keys("y");
  await term.waitForCount("[y/N]", 2);
  term.keys("n");
  expect(await term.exitCode()).toBe(0);
  expect(term.history()).toContain(
    [
      'tool: agent__releaser {"prompt":"release"}',
      "  tool: publish {}",
      "  ? Publish",
      "    Push the current branch to origin?",
      "    [y/N] yes",
      '  tool: agent__pusher {"prompt":"push"}',
      "    tool: publish {}",
      "    ? Publish",
      "      Push the current branch to origin?",
      "      [y/N] no",
      "    tool failed: cancelled by the user",
      "Done.",
    ].join("\n"),
  );
});
