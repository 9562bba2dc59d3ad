/**
 * The ctx a provider module is called with: a hook's ctx (docs/tools.md,
 * "The context") for a call that belongs to no run. Evaluation happens
 * before any session exists and once per process for every session after.
 */
import type { ContextData, FrontEnd, InvocationContext } from "../runtime/index.ts";
import type { EvaluateOptions } from "./types.ts";

/**
 * `ctx.workdir` and `ctx.session.workdir`: the module's own folder (its
 * file root and working directory); `ctx.session` names no session and no
 * model (`id`, `agentId`, `modelId` all ""); `ctx.agent` has empty fields;
 * `ctx.config` is config.yaml as data; `ctx.cache` and `ctx.store` keep
 * their files under `riendaDir` (`~/.rienda`), as for tools and hooks.
 */
export function moduleContextData(
  folder: string,
  configDocument: Record<string, unknown>,
  riendaDir: string,
): ContextData {
  return {
    workdir: folder,
    session: { id: "", agentId: "", modelId: "", workdir: folder },
    agent: {
      name: "",
      description: "",
      model: "",
      tools: [],
      hooks: [],
      skills: [],
      agents: [],
      config: {},
      systemPrompt: "",
    },
    config: configDocument,
    riendaDir,
  };
}

/**
 * The front end of a module call: `ctx.log` lines, the output of commands it
 * runs and `ctx.notify` notices go to `log` (default: stderr); `ctx.confirm`
 * answers false (nobody is asked while providers are read), unless the
 * caller gives a front end of its own.
 */
export function moduleFrontEnd(log?: (text: string) => void): FrontEnd {
  const line = log ?? writeLine;
  return {
    log: line,
    // Chunks as they come: on stderr as they are, to a sink one chunk a call.
    output: (_stream, text) => (log ? log(text.endsWith("\n") ? text.slice(0, -1) : text) : process.stderr.write(text)),
    notify: (prompt) =>
      line(`notice: ${prompt.title && prompt.body ? `${prompt.title}: ${prompt.body}` : prompt.title || prompt.body}`),
    confirm: async () => false,
  };
}

/** The InvocationContext of one evaluation. */
export function moduleInvocation(folder: string, options: EvaluateOptions, signal: AbortSignal): InvocationContext {
  return {
    data: moduleContextData(folder, options.configDocument, options.riendaDir),
    frontEnd: options.frontEnd ?? moduleFrontEnd(options.log),
    signal,
    httpBodyLimitBytes: MODULE_HTTP_BODY_LIMIT_BYTES,
  };
}

/** The most a module's `ctx.http.fetch` reads of a response body (go-current.md §3; the Go program's CatalogBudget): models.dev's catalogue is megabytes. */
export const MODULE_HTTP_BODY_LIMIT_BYTES = 32 * 1024 * 1024;

function writeLine(text: string): void {
  process.stderr.write(text.endsWith("\n") ? text : `${text}\n`);
}
