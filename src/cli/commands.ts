/** The table of commands, each imported only when it runs, under the bare `rienda` (the chat). */
import { chatArgs } from "./chat/chat-args.ts";
import type { Command, LazyCommand } from "./shared/command.ts";

/**
 * Every command, loaded lazily so `rienda --version` and `rienda tool run`
 * never pay for the modules of other commands.
 */
const commands: Record<string, LazyCommand> = {
  run: () => import("./run/command.ts").then((m) => m.default),
  sessions: () => import("./sessions/command.ts").then((m) => m.default),
  tool: () => import("./tool/command.ts").then((m) => m.default),
  init: () => import("./init/command.ts").then((m) => m.default),
  doctor: () => import("./doctor/command.ts").then((m) => m.default),
  skill: () => import("./skill/command.ts").then((m) => m.default),
  version: () => import("./version/command.ts").then((m) => m.default),
  mcp: () => import("./mcp/command.ts").then((m) => m.default),
  rpc: () => import("./rpc/command.ts").then((m) => m.default),
  acp: () => import("./acp/command.ts").then((m) => m.default),
  models: () => import("./models/command.ts").then((m) => m.default),
  auth: () => import("./auth/command.ts").then((m) => m.default),
};

/**
 * `rienda` itself: the commands, and with none named the interactive chat,
 * whose flags are the root's (so `rienda --help` lists them, and flags
 * before a command are told from its name by them). The chat's module is
 * loaded only when it runs.
 */
export const root: Command<typeof chatArgs> = {
  meta: { name: "rienda", description: "A scriptable LLM agent harness." },
  args: chatArgs,
  subCommands: commands,
  run: async (line) => (await import("./chat/command.ts")).default.run!(line),
};
