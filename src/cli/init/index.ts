/**
 * `rienda init`'s content and its installer: the starter files (embedded in
 * the binary as string constants) and the exclusive, never-overwriting
 * writer that puts them under ~/.rienda.
 *
 * Invariants: an existing path is never replaced, whatever it is; nothing is
 * read from the source tree at run time, and only this machine's usual
 * model-server ports are asked (`--replay` skips even that); ~/.rienda is created
 * 0700 and config.yaml 0600. Must not load or validate config (that is
 * `rienda doctor`'s job) nor print anything itself.
 */
export { installStarter, type FileOutcome, type InstallReport } from "./install-starter.ts";
export { STARTER_AGENT_ID, STARTER_FILES, type StarterFile } from "./starter-files.ts";
export { localStarter, type FoundServer, type LocalStarter } from "./local-starter.ts";
