/** Host side: the runtime itself; decides where each call runs (a realm of the helper, or a worker) and serves its ctx. */
import { createCtxHandler, type CtxScope } from "./ctx-host.ts";
import { keepProcessState } from "../process-state.ts";
import { inspectInLanes } from "./inspect-modules.ts";
import { runProcess, type ProcessRequest, type ProcessResult } from "./run-process.ts";
import { serveBridge, type BridgeServer } from "./serve-bridge.ts";
import type { InspectOutcome, InvocationContext, InvokeRequest, Outcome, Runtime, RuntimeOptions } from "../types.ts";
import type { CallMessage } from "../worker-messages.ts";
import { createRealmHelpers, realmsAvailable, type RealmHelpers, type RealmReply } from "./realm-helper.ts";
import { contextWorkers, runWorkerCall, workerUrl, type ContextWorker, type WorkerOutcome } from "./worker-call.ts";

/** See useRealms. */
const HELPER_BOOT_DELAY_MS = 25;

/**
 * A module that does not finish loading within this time fails inspection.
 * A choice, not a measurement: far above any load seen (milliseconds), short
 * enough that a hung top level does not stall a start for long.
 */
const INSPECT_TIMEOUT_MS = 10_000;

/** Creates the process's runtime. Nothing is shared between two runtimes. */
export function createRuntime(options: RuntimeOptions = {}): Runtime {
  const calls = createCalls(options);
  const inspectTimeoutMs = options.inspectTimeoutMs ?? INSPECT_TIMEOUT_MS;
  const inspectAlone = (modulePath: string) => inspect(calls, modulePath, inspectTimeoutMs);
  return {
    invoke: (request) => invoke(calls, request),
    inspect: inspectAlone,

    async inspectAll(modulePaths: readonly string[]): Promise<InspectOutcome[]> {
      const controller = new AbortController();
      calls.active.add(controller);
      try {
        const host = {
          spawnWorker: calls.spawnWorker,
          timeoutMs: inspectTimeoutMs,
          signal: controller.signal,
          closed: () => calls.closed,
          restoreProcessState: calls.restoreProcessState,
          inspectAlone,
        };
        return await inspectInLanes(modulePaths, host);
      } finally {
        calls.active.delete(controller);
      }
    },

    async exec(request: ProcessRequest): Promise<ProcessResult> {
      const controller = new AbortController();
      const unlink = request.signal ? link(request.signal, controller) : () => {};
      if (calls.closed) controller.abort();
      calls.active.add(controller);
      try {
        return await runProcess({ ...request, signal: controller.signal });
      } finally {
        calls.active.delete(controller);
        unlink();
      }
    },

    expectCalls() {
      if (!calls.closed) calls.useRealms();
    },

    settled: async () => {
      await calls.helperWanted;
      await calls.realms?.settled();
    },

    interrupt() {
      for (const controller of [...calls.active]) controller.abort();
    },

    async close() {
      calls.closed = true;
      for (const controller of [...calls.active]) controller.abort();
      calls.realms?.close();
    },
  };
}

/** Where a runtime's calls run, and what is in flight: the state its methods share. */
interface Calls {
  spawnWorker: () => ContextWorker;
  /** Calls run in ShadowRealms of a helper once calls keep coming (see realm-helper.ts); undefined: workers only. */
  realms: RealmHelpers | undefined;
  /** Resolves once the helper's boot has started; set once calls are expected (useRealms). */
  helperWanted: Promise<void> | undefined;
  /** The helper could not run calls (see RealmReply "unavailable"): workers only, from then on. */
  realmsBroken: boolean;
  /** Every invocation and process in flight, so interrupt() reaches all of them. */
  active: Set<AbortController>;
  closed: boolean;
  /** A module's process.chdir() or process.umask() lasts for its own call only. */
  restoreProcessState: () => void;
  useRealms(): void;
  /** Runs one call in a worker of its own; the runtime's interrupt and close reach it. */
  runInWorker(
    message: CallMessage,
    controller: AbortController,
    serve?: (buffer: SharedArrayBuffer) => BridgeServer,
  ): Promise<WorkerOutcome>;
  /** One invocation in a new realm of the helper, with its ctx served from this thread as for a worker. */
  runInRealm(request: InvokeRequest, controller: AbortController): Promise<RealmReply>;
}

function createCalls(options: RuntimeOptions): Calls {
  const spawnWorker = contextWorkers(workerUrl());
  // A first call, a call while the helper is busy, and every call where there are no ShadowRealms (Deno) get a worker.
  const realms =
    contextsWanted(options) === "realms"
      ? createRealmHelpers(workerUrl(undefined, "realm-helper-worker.ts"))
      : undefined;
  const restoreProcessState = keepProcessState();
  const active = new Set<AbortController>();
  const tracked = async <T>(controller: AbortController, work: () => Promise<T>): Promise<T> => {
    active.add(controller);
    try {
      return await work();
    } finally {
      active.delete(controller);
      restoreProcessState();
    }
  };
  const calls: Calls = {
    spawnWorker,
    realms,
    helperWanted: undefined,
    realmsBroken: false,
    active,
    closed: false,
    restoreProcessState,
    /**
     * Once calls are expected, the helper is booted. The boot waits HELPER_BOOT_DELAY_MS: it
     * costs 25-30 ms of CPU, which right after discovery would hold up the
     * first request on two cores (measured: 6 ms later), and after the one
     * call of `rienda tool run` would be wasted (the process has exited by then).
     */
    useRealms() {
      if (!realms || calls.helperWanted || calls.realmsBroken) return;
      calls.helperWanted = new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          if (!calls.closed) realms.prepare();
          resolve();
        }, HELPER_BOOT_DELAY_MS);
        (timer as { unref?(): void }).unref?.();
      });
    },
    runInWorker: (message, controller, serve) =>
      tracked(controller, () => runWorkerCall(spawnWorker(), message, controller.signal, serve)),
    runInRealm: (request, controller) =>
      tracked(controller, () =>
        realms!.run(
          callMessage(request),
          (buffer) => serveBridge(buffer, createCtxHandler(scopeOf(request.context, controller.signal))),
          controller.signal,
        ),
      ),
  };
  return calls;
}

/** Runtime.invoke: in a realm of the helper when one is ready, else in a worker of its own. */
async function invoke(calls: Calls, request: InvokeRequest): Promise<Outcome> {
  const { context } = request;
  if (calls.closed || context.signal.aborted) return { kind: "interrupted" };
  const controller = new AbortController();
  const unlink = link(context.signal, controller);
  // Once the helper is wanted, a call boots it if it is not there (not yet, or ended by an interrupt or an
  // exit) and waits for it: a worker started beside a booting helper would cost both their memory.
  if (calls.helperWanted && !calls.realmsBroken) calls.realms!.prepare();
  if (calls.realms?.available() && !calls.realmsBroken) {
    const reply = await calls.runInRealm(request, controller).catch((error: unknown) => {
      unlink();
      throw error;
    });
    if (reply.kind !== "unavailable") {
      unlink();
      return outcomeOf(reply);
    }
    // Our own failure, before any of the call ran: this call and every later one get a worker.
    calls.realmsBroken = true;
    calls.realms.close();
    context.frontEnd.log(`rienda: ${reply.message}; tools and hooks run in workers from now on`);
  }
  try {
    const reply = await calls.runInWorker(callMessage(request), controller, (buffer) =>
      serveBridge(buffer, createCtxHandler(scopeOf(context, controller.signal))),
    );
    return outcomeOf(reply);
  } finally {
    unlink();
    // Calls keep coming (a chat, mcp serve): the next ones run in realms.
    if (!calls.closed) calls.useRealms();
  }
}

/** Runtime.inspect: one module loaded alone in a fresh worker, within `timeoutMs`. */
async function inspect(calls: Calls, modulePath: string, timeoutMs: number): Promise<InspectOutcome> {
  if (calls.closed) return { kind: "interrupted" };
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  try {
    const reply = await calls.runInWorker({ kind: "call", mode: "inspect", modulePath }, controller);
    if (reply.kind === "inspected") return { kind: "loaded", shape: reply.shape };
    if (reply.kind === "interrupted") {
      return timedOut
        ? { kind: "load-failed", message: `the module did not finish loading within ${timeoutMs} ms` }
        : reply;
    }
    if (reply.kind === "load-failed" || reply.kind === "threw" || reply.kind === "crashed")
      return { kind: "load-failed", message: reply.message };
    return { kind: "load-failed", message: "the context answered in an unexpected way" };
  } finally {
    clearTimeout(timer);
  }
}

/** The message that starts an invocation in a realm or a worker. */
function callMessage(request: InvokeRequest): CallMessage {
  return {
    kind: "call",
    mode: "invoke",
    modulePath: request.modulePath,
    exportName: request.exportName,
    args: request.args,
    data: request.context.data,
  };
}

/** What the host side of an invocation's ctx works with; `signal` ends with the invocation. */
function scopeOf(context: InvocationContext, signal: AbortSignal): CtxScope {
  const { workdir, riendaDir } = context.data;
  return { workdir, riendaDir, frontEnd: context.frontEnd, signal, httpBodyLimitBytes: context.httpBodyLimitBytes };
}

/** Aborts `target` when `source` aborts; returns the function that undoes the link. */
function link(source: AbortSignal, target: AbortController): () => void {
  if (source.aborted) {
    target.abort();
    return () => {};
  }
  const forward = () => target.abort();
  source.addEventListener("abort", forward, { once: true });
  return () => source.removeEventListener("abort", forward);
}

function outcomeOf(reply: WorkerOutcome): Outcome {
  switch (reply.kind) {
    case "returned":
      return { kind: "returned", value: reply.value, type: reply.type };
    case "threw":
    case "load-failed":
      return { kind: reply.kind, message: reply.message };
    case "interrupted":
      return reply;
    case "crashed":
      return { kind: "threw", message: reply.message };
    default:
      return { kind: "threw", message: "the context answered in an unexpected way" };
  }
}

/**
 * Realms where the runtime has them, unless asked otherwise: the option,
 * then RIENDA_CONTEXTS=workers (a worker per call, as before realms; for
 * comparing and as a way out should a module need it).
 */
function contextsWanted(options: RuntimeOptions): "realms" | "workers" {
  const wanted = options.contexts ?? (process.env.RIENDA_CONTEXTS === "workers" ? "workers" : "realms");
  return wanted === "realms" && realmsAvailable() ? "realms" : "workers";
}
