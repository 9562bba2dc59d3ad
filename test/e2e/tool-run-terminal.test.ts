/** `rienda tool run` in a real terminal: a command's output reads once, as the result. */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { Instance } from "../support/instance.ts";
import { hasTmux, Terminal } from "../support/tmux.ts";

setDefaultTimeout(60_000);

let inst: Instance | undefined;
let term: Terminal | undefined;
afterEach(() => {
  term?.dispose();
  term = undefined;
  inst?.dispose();
  inst = undefined;
});

const BRANCH = `module.exports = {
  description: "Prints a branch name through a command.",
  parameters: { type: "object", properties: {}, additionalProperties: false },
  execute: function(ctx) {
    ctx.log("looking up the branch");
    const result = ctx.system.exec("echo feature-x1");
    return result.stdout.trim();
  },
};
`;

test("in a terminal, the command's output appears once (as the result); ctx.log still shows", async () => {
  if (!hasTmux()) throw new Error("this test needs tmux (apt-get install -y tmux)");
  inst = new Instance();
  inst.tool("branch", BRANCH);
  term = Terminal.start(inst, { args: ["tool", "run", "branch"] });
  expect(await term.exitCode()).toBe(0);
  const screen = term.history();
  expect(screen.split("feature-x1").length - 1).toBe(1);
  expect(screen).toContain("looking up the branch\nfeature-x1");
});

test("with stdout captured, the command's output still streams to stderr and the result goes to stdout", async () => {
  inst = new Instance();
  inst.tool("branch", BRANCH);
  const r = await inst.run(["tool", "run", "branch"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("feature-x1\n");
  expect(r.stderr).toBe("looking up the branch\nfeature-x1\n");
});
