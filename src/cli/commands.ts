/** The table of sub-commands, each imported only when it runs. */
import type { CommandDef } from "citty";

type LazyCommand = () => Promise<CommandDef<any>>;

/**
 * Every sub-command, loaded lazily so `rienda --version` and `rienda tool run`
 * never pay for the modules of other commands.
 */
export const commands: Record<string, LazyCommand> = {
  run: () => import("./run.ts").then((m) => m.default),
  sessions: () => import("./sessions.ts").then((m) => m.default),
  tool: () => import("./tool.ts").then((m) => m.default),
  init: () => import("./init.ts").then((m) => m.default),
  doctor: () => import("./doctor.ts").then((m) => m.default),
  skill: () => import("./skill.ts").then((m) => m.default),
  version: () => import("./version.ts").then((m) => m.default),
  mcp: () => import("./mcp.ts").then((m) => m.default),
  rpc: () => import("./rpc.ts").then((m) => m.default),
  acp: () => import("./acp/command.ts").then((m) => m.default),
  models: () => import("./models.ts").then((m) => m.default),
  auth: () => import("./auth.ts").then((m) => m.default),
};

/** The command behind a bare `rienda`: the interactive chat. */
export const chatCommand: LazyCommand = () => import("./chat.ts").then((m) => m.default);
