import type { CommandDef } from "citty";

type LazyCommand = () => Promise<CommandDef<any>>;

/**
 * Every sub-command, loaded lazily so `rienda --version` and `rienda tool run`
 * never pay for the modules of other commands.
 */
export const commands: Record<string, LazyCommand> = {
};

/** The command behind a bare `rienda`: the interactive chat. */
export const chatCommand: LazyCommand = () => import("./chat.ts").then((m) => m.default);
