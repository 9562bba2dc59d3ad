/**
 * `rienda auth`: the keys of providers, stored in credentials.json
 * (go-current.md §4; docs/cli.md "rienda auth"). On a terminal, bare: the
 * key screen (every provider, Enter types its key, masked). For scripts:
 * `auth set NAME` (the key on stdin, never in argv), `auth list [--json]`,
 * `auth rm NAME`. Exit 0, 1 on any failure (a usage error included, and
 * `list` when a provider module fails), 130 when interrupted while a key is
 * typed.
 */
import { defineCommand, type Command } from "../shared/command.ts";
import type { ArgsDef, CommandLine } from "../shared/strict-args.ts";
import { readCredentials } from "../../credentials/index.ts";
import { RiendaError } from "../../errors.ts";
import { listKeys, ModuleLines, openKeyContext, removeKey, setKey, type KeyCommandContext } from "./index.ts";
import { exitWhenFlushed } from "../shared/exit.ts";
import { homeDir } from "../shared/home-dir.ts";
import { INTERRUPTED_EXIT } from "../shared/interrupts.ts";
import { stderrForPeople } from "../shared/for-people.ts";

const configArg = {
  type: "string",
  description: "Path of config.yaml (default: RIENDA_CONFIG, else ~/.rienda/config.yaml)",
} as const;
const nameArg = { type: "positional", required: false, description: "The provider" } as const;

const screenArgs = { config: configArg } as const;
const nameArgs = { name: nameArg, config: configArg } as const;
/** A second word is read only to refuse it without repeating it: it is probably the key. */
const setArgs = {
  ...nameArgs,
  key: { type: "positional", required: false, hidden: true, description: "refused: the key is read from stdin" },
} as const;
const listArgs = {
  json: { type: "boolean", description: "list: one JSON object { credentials, providers, unused_keys }" },
  config: configArg,
} as const;

/** A subcommand that ends with 130 when interrupted while a key is typed (the error says so on stderr). */
function keyCommand<const A extends ArgsDef>(
  command: Command<A> & { run(line: CommandLine<A>): Promise<void> },
): Command<A> {
  return {
    ...command,
    async run(line) {
      try {
        await command.run(line);
      } catch (error) {
        if (!(error instanceof RiendaError && error.code === "interrupted")) throw error;
        stderrForPeople().write(`rienda: ${error.message}\n`);
        await exitWhenFlushed(INTERRUPTED_EXIT);
      }
    },
  };
}

const subcommands = {
  set: keyCommand({
    meta: { name: "set", description: "Store the key of a provider, read from stdin (typed, masked, on a terminal)." },
    args: setArgs,
    async run({ values, positionals }) {
      const name = requireName(positionals[0], "set", "the provider whose key to store (the key comes on stdin)");
      if (positionals.length > 1) {
        throw new RiendaError(
          "usage",
          "auth set: takes no key on the command line (ps and the shell's history would show it); give it on stdin: rienda auth set NAME < keyfile, or type it at the prompt",
        );
      }
      await withContext(values.config, (context) =>
        setKey(context, name, { stdin: process.stdin, stderr: stderrForPeople() }),
      );
    },
  }),
  list: keyCommand({
    meta: { name: "list", description: "List every provider, whether it has a key and where the key comes from." },
    args: listArgs,
    async run({ values }) {
      const allWork = await withContext(values.config, (context) =>
        listKeys(context, values.json === true, { stderr: stderrForPeople() }),
      );
      if (!allWork) process.exitCode = 1;
    },
  }),
  rm: keyCommand({
    meta: { name: "rm", description: "Remove the stored key of a provider." },
    args: nameArgs,
    async run({ values, positionals }) {
      const name = requireName(positionals[0], "rm", "the provider whose stored key to remove");
      await withContext(values.config, async (context) => removeKey(context, name, { stderr: stderrForPeople() }));
    },
  }),
};

export default defineCommand({
  meta: {
    name: "auth",
    description:
      "Store provider keys in credentials.json. On a terminal: a screen listing every provider. For scripts: auth set NAME (the key on stdin), auth list [--json], auth rm NAME.",
  },
  args: screenArgs,
  subCommands: subcommands,
  async run({ values }) {
    if (!process.stdin.isTTY || !process.stdout.isTTY) {
      throw new RiendaError(
        "usage",
        "auth: the key screen needs a terminal; in a script, store a key with rienda auth set NAME (the key on stdin: rienda auth set NAME < keyfile), list them with rienda auth list [--json], remove one with rienda auth rm NAME",
      );
    }
    // What modules print while the screen is up is shown inside it, never written over it.
    const moduleLines = new ModuleLines();
    const code = await withContext(
      values.config,
      async (context) => {
        // A damaged credentials.json is named before the screen takes the terminal.
        readCredentials(context.credentialsPath);
        if (context.roster.listings().length === 0)
          throw new RiendaError(
            "usage",
            `auth: no provider is declared: add one to ${context.config.path} or a provider module to ~/.rienda/providers (docs/providers.md)`,
          );
        return (await import("./auth-screen.ts")).runAuthScreen(context, moduleLines);
      },
      moduleLines.add,
    );
    return exitWhenFlushed(code);
  },
});

/** Opens config, roster and credentials for one command; the roster's runtime is ended however it goes. */
async function withContext<T>(
  configFlag: string | undefined,
  work: (context: KeyCommandContext) => Promise<T>,
  log?: (text: string) => void,
): Promise<T> {
  const context = openKeyContext({
    home: homeDir(),
    env: process.env,
    ...(configFlag !== undefined ? { configFlag } : {}),
    ...(log ? { log } : {}),
  });
  try {
    return await work(context);
  } finally {
    await context.roster.close();
  }
}

function requireName(word: string | undefined, sub: string, what: string): string {
  if (word === undefined)
    throw new RiendaError(
      "usage",
      `auth ${sub}: name ${what}, e.g. rienda auth ${sub} openai (rienda auth list shows the providers)`,
    );
  return word;
}
