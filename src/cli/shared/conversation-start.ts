/** What the chat and `rienda rpc` open their conversation with, read from the flags they share (run-flags.ts). */
import type { ConversationStart } from "../../conversation/index.ts";
import { homeDir } from "./home-dir.ts";
import { resolveWorkdir } from "./resolve-workdir.ts";

/** The shared flags as read; the ones not given are absent. */
export interface StartFlags {
  workdir?: string;
  config?: string;
  agent?: string;
  model?: string;
  thinking?: string;
  sandbox?: string;
}

/** The conversation's start: HOME, the environment, the workspace (-C, else the current directory) and each flag given. */
export function conversationStart(flags: StartFlags): ConversationStart {
  return {
    home: homeDir(),
    env: process.env,
    workdir: resolveWorkdir(flags.workdir),
    workdirGiven: flags.workdir !== undefined,
    ...(flags.config !== undefined ? { configPath: flags.config } : {}),
    ...(flags.agent !== undefined ? { agentId: flags.agent } : {}),
    ...(flags.model !== undefined ? { modelRef: flags.model } : {}),
    ...(flags.thinking !== undefined ? { thinking: flags.thinking } : {}),
    ...(flags.sandbox !== undefined ? { sandbox: flags.sandbox } : {}),
  };
}
