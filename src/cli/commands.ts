/** The table of sub-commands, each imported only when it runs. */
import type { CommandDef } from "citty";

type LazyCommand = () => Promise<CommandDef<any>>;

/**
 * Every sub-command, loaded lazily so `rienda --version` and `rienda tool run`
 * never pay for the modules of other commands.
 */
export const commands: Record<string, LazyCommand> = {
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

/** The command behind a bare `rienda`: the interactive chat. */
export const chatCommand: LazyCommand = () => import("./chat/command.ts").then((m) => m.default);
