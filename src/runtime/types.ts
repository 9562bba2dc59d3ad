/** The runtime's public types: the call, its context (`ctx` data, front end), its outcomes, the Runtime. */
import type { ProcessRequest, ProcessResult } from "./host/run-process.ts";

/** `ctx.session`: the run a tool or hook is part of. */
export interface SessionInfo {
  id: string;
  agentId: string;
  modelId: string;
  workdir: string;
}

/**
 * `ctx.agent`: the agent's id, its whole frontmatter and its body. The
 * agents/ folder's Agent (the file as loaded) takes these fields from here.
 */
export interface AgentInfo {
  /** The agent's id: its file name without `.md`. */
  name: string;
  description: string;
  /** `provider/alias` as written; absent when the agent names none (go-current.md: the session picks the model). */
  model?: string;
  /** Tool names, in the order written, no duplicates. */
  tools: string[];
  /** Hook names, in the order they run, no duplicates. */
  hooks: string[];
  /** Skill names (`~/.rienda/skills/<name>`, docs/skills.md), in the order written, no duplicates. */
  skills: string[];
  /** Ids of the agents it may delegate to (docs/subagents.md), in the order written, no duplicates. */
  agents: string[];
  /** Extension name -> settings. */
  config: Record<string, unknown>;
  /** The body after the frontmatter, trimmed. */
  systemPrompt: string;
}

/**
 * The plain data behind `ctx` (tools.md "The context"): it is copied into
 * every fresh context, so it must be JSON-serialisable.
 */
export interface ContextData {
  workdir: string;
  session: SessionInfo;
  agent: AgentInfo;
  config: Record<string, unknown>;
  /**
   * The absolute `~/.rienda` folder: `ctx.cache` and `ctx.store` keep their
   * files in its `cache/` and `store/` (host side only, not a member of ctx).
   */
  riendaDir: string;
}

/** A question for `ctx.confirm` and a notice for `ctx.notify`. */
export interface Prompt {
  title: string;
  body: string;
}

/**
 * The front end an invocation talks to while it runs. Implementations decide
 * how to show things (terminal, JSON events) and how `confirm` is answered
 * (a terminal question, or the auto-approve setting).
 */
export interface FrontEnd {
  /** `ctx.log` text, streamed live. */
  log(text: string): void;
  /** Live output of a process the invocation started. */
  output(stream: "stdout" | "stderr", text: string): void;
  /** `ctx.confirm`; resolves true on approval. */
  confirm(prompt: Prompt): Promise<boolean>;
  /** `ctx.notify`; must not block. */
  notify(prompt: Prompt): void;
}

/** One invocation's surroundings (tools and hooks alike). */
export interface InvocationContext {
  data: ContextData;
  frontEnd: FrontEnd;
  /** Aborted when the run is interrupted. */
  signal: AbortSignal;
  /**
   * The most bytes a `ctx.http.fetch` body may have in this invocation: a
   * larger one fails the call, and no more than this is read. None when left
   * out (tools and hooks); provider modules get 32 MiB (go-current.md §3).
   */
  httpBodyLimitBytes?: number;
}

/** One call of one exported function of a module, in a fresh context. */
export interface InvokeRequest {
  /** Absolute path of a CommonJS module. */
  modulePath: string;
  /** The export to call as `fn(ctx, ...args)`; "" calls `module.exports` itself, which must then be a function. */
  exportName: string;
  /** Structured-cloneable arguments after `ctx`. */
  args: unknown[];
  context: InvocationContext;
}

/** How an invocation ended. Every failure is a value; `invoke` never rejects. */
export type Outcome =
  | {
      kind: "returned";
      /** A structured clone of the returned value (its JSON form when it could not be cloned). */
      value: unknown;
      /** What was returned, for messages: "a string", "a number", "an array", "null", "undefined", "a Promise", "an object", ... */
      type: string;
    }
  | { kind: "threw"; message: string }
  | { kind: "interrupted" }
  | { kind: "load-failed"; message: string };

/** One own enumerable export of a module: its type and, when JSON-able and not a function, a copy of its value. */
export interface MemberShape {
  type: string;
  value?: unknown;
  /** A function declared `async` (it always returns a Promise). */
  async?: true;
  /** A plain function whose source mentions `Promise`, `.then(` or `await`. */
  usesPromises?: true;
}

/** What a module exports, as seen from a fresh context. */
export interface ModuleShape {
  /** Type of `module.exports` ("an object", "a function", "null", ...). */
  type: string;
  members: Record<string, MemberShape>;
}

/** Result of loading a module to look at its exports. */
export type InspectOutcome =
  | { kind: "loaded"; shape: ModuleShape }
  | { kind: "load-failed"; message: string }
  | { kind: "interrupted" };

/** Settings of a runtime. */
export interface RuntimeOptions {
  /**
   * Where invocations run: "realms" (the default where ShadowRealm exists:
   * each call in a new realm of one helper worker, once calls keep coming)
   * or "workers" (each call in a worker of its own). Discovery always uses workers.
   */
  contexts?: "realms" | "workers";
  /** A module that does not finish loading within this time fails inspection (default 10 s). */
  inspectTimeoutMs?: number;
}

/**
 * Runs exported functions of user modules, each call in a fresh context, with
 * a synchronous `ctx`. One per process; it knows nothing about tools or hooks.
 */
export interface Runtime {
  invoke(request: InvokeRequest): Promise<Outcome>;
  /** Loads one module in a fresh context and reports what it exports. */
  inspect(modulePath: string): Promise<InspectOutcome>;
  /**
   * Looks at many modules (discovery), in input order. Workers are fresh at
   * the start and each loads several modules one after another; a module that
   * hangs or ends its worker is reported alone and the others go on.
   */
  inspectAll(modulePaths: readonly string[]): Promise<InspectOutcome[]>;
  /** Runs a shell command in its own process group; killed by interrupt() and close() too. */
  exec(request: ProcessRequest): Promise<ProcessResult>;
  /**
   * Calls will keep coming (an agent with tools or hooks): the realm helper
   * boots now, so that the calls after the first need no worker.
   */
  expectCalls(): void;
  /**
   * Resolves once the helper asked for by expectCalls is booted, so the
   * next invocation runs in a realm (tests and benchmarks wait for this
   * instead of sleeping).
   */
  settled(): Promise<void>;
  /** Ends every invocation and process in flight at once (each reports "interrupted"). */
  interrupt(): void;
  /** Interrupts what is running and stops the realm helper. */
  close(): Promise<void>;
}
