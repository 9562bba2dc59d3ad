import { describe, expect, test } from "bun:test";
import { locateCommand } from "../../src/cli/locate-command.ts";
import { defineCommand, type Command } from "../../src/cli/shared/command.ts";

const leaf = (name: string) =>
  defineCommand({ meta: { name, description: name }, args: { json: { type: "boolean" } }, run() {} });
const root: Command<any> = defineCommand({
  meta: { name: "rienda", description: "root" },
  args: { agent: { type: "string", alias: "a" }, workdir: { type: "string", alias: "C" }, plain: { type: "boolean" } },
  run() {},
  subCommands: {
    run: leaf("run"),
    tool: defineCommand({
      meta: { name: "tool", description: "tool" },
      subCommands: { list: leaf("list"), run: leaf("run") },
    }),
    sessions: defineCommand({
      meta: { name: "sessions", description: "sessions" },
      args: { workdir: { type: "string", alias: "C" } },
      otherWords: "argument",
      run() {},
      subCommands: { show: leaf("show") },
    }),
    auth: defineCommand({
      meta: { name: "auth", description: "auth" },
      args: { config: { type: "string" } },
      run() {},
      subCommands: { set: leaf("set"), list: leaf("list"), rm: leaf("rm") },
    }),
  },
});

const locate = async (...argv: string[]) => {
  const { path, tokens } = await locateCommand(root, argv, false);
  return { path, tokens };
};
const refusal = async (...argv: string[]): Promise<string> => {
  try {
    await locateCommand(root, argv, false);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("not refused");
};

describe("locateCommand", () => {
  test("no command: the root (the chat) with the whole line", async () => {
    expect(await locate("-a", "coder", "--plain")).toEqual({ path: [], tokens: ["-a", "coder", "--plain"] });
  });

  test("flags before the command stay in its line; a flag's value is never taken for the command", async () => {
    expect(await locate("-C", "run", "run", "--json")).toEqual({ path: ["run"], tokens: ["-C", "run", "--json"] });
    expect(await locate("-C", "d", "tool", "run", "shell", "-y")).toEqual({
      path: ["tool", "run"],
      tokens: ["-C", "d", "shell", "-y"],
    });
  });

  test("a subcommand is found after its parent's value flags; `--` sets a command word apart", async () => {
    expect(await locate("sessions", "-C", "show", "show", "ID")).toEqual({
      path: ["sessions", "show"],
      tokens: ["-C", "show", "ID"],
    });
    expect(await locate("auth", "--config", "c.yaml", "set", "openai")).toEqual({
      path: ["auth", "set"],
      tokens: ["--config", "c.yaml", "openai"],
    });
    expect(await locate("--", "run", "--json")).toEqual({ path: ["run"], tokens: ["--json"] });
  });

  test("words that name no command", async () => {
    expect(await refusal("sesions")).toBe('unknown command "sesions" (did you mean "sessions"? see rienda --help)');
    expect(await refusal("-a", "coder", "fix", "it")).toStartWith(
      'unknown command "fix" (rienda with no command opens the chat',
    );
    expect(await refusal("constructor")).toBe('unknown command "constructor" (see rienda --help)');
    expect(await refusal("tool")).toBe("tool: name a subcommand: list or run (see rienda tool --help)");
    expect(await refusal("tool", "lst")).toBe(
      'tool: unknown subcommand "lst" (did you mean "list"? list or run; see rienda tool --help)',
    );
    expect(await refusal("auth", "zzz")).toBe(
      'auth: unknown subcommand "zzz" (set, list or rm; see rienda auth --help)',
    );
    // The listing's own strict reading refuses the word.
    expect(await locate("sessions", "x")).toEqual({ path: ["sessions"], tokens: ["x"] });
    expect(await locate("auth")).toEqual({ path: ["auth"], tokens: [] });
  });

  test("lenient (--help): the last command named", async () => {
    expect((await locateCommand(root, ["tool", "frob", "--help"], true)).path).toEqual(["tool"]);
    expect((await locateCommand(root, ["frob", "--help"], true)).path).toEqual([]);
  });
});
