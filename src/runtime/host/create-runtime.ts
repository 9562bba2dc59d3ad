/** Host side: the runtime itself; decides where each call runs (a realm of the helper, or a worker) and serves its ctx. */
import { createCtxHandler, type CtxScope } from "./ctx-host.ts";
import { keepProcessState } from "../process-state.ts";
import { runInspectLane } from "./inspect-lane.ts";
import { runProcess, type ProcessRequest, type ProcessResult } from "./run-process.ts";
import { serveBridge, type BridgeServer } from "./serve-bridge.ts";
import type { InspectOutcome, InvocationContext, InvokeRequest, Outcome, Runtime, RuntimeOptions } from "../types.ts";
import type { CallMessage } from "../worker-messages.ts";
import { createRealmHelpers, realmsAvailable, type RealmHelpers, type RealmReply } from "./realm-helper.ts";
import { contextWorkers, runWorkerCall, workerUrl, type WorkerOutcome } from "./worker-call.ts";

/** See useRealms. */
const HELPER_BOOT_DELAY_MS = 25;

/**
 * Discovery lanes: workers that each load a share of the modules one after
 * another. A worker per module boots 20 workers for 20 tools (about 2 ms of
 * CPU each): start to first request with 20 tools declared measured 72-77 ms
 * that way against 36-41 ms with two lanes, which measured best on two
 * cores (docs/design/runtime-history.md, issue 29).
 */
const INSPECT_LANES = 2;

/**
 * A module that does not finish loading within this time fails inspection.
 * A choice, not a measurement: far above any load seen (milliseconds), short
 * enough that a hung top level does not stall a start for long.
 */
const INSPECT_TIMEOUT_MS = 10_000;

/** Creates the process's runtime. Nothing is shared between two runtimes. */
export function createRuntime(options: RuntimeOptions = {}): Runtime {
  const spawnWorker = contextWorkers(workerUrl());
  // Calls run in ShadowRealms of a helper once calls keep coming (see realm-helper.ts); a first call, a
  // call while the helper is busy, and every call where there are no ShadowRealms (Deno) get a worker.
  const realms: RealmHelpers | undefined = contextsWanted(options) === "realms" ? createRealmHelpers(workerUrl(undefined, "realm-helper-worker.ts")) : undefined;
  /**
   * Once calls are expected, the helper is booted. The boot waits HELPER_BOOT_DELAY_MS: it
   * costs 25-30 ms of CPU, which right after discovery would hold up the
   * first request on two cores (measured: 6 ms later), and after the one
   * call of `rienda tool run` would be wasted (the process has exited by then).
   * Resolves once that boot has started.
   */
  let helperWanted: Promise<void> | undefined;
  /** The helper could not run calls (see RealmReply "unavailable"): workers only, from then on. */
  let realmsBroken = false;
  const useRealms = () => {
    if (!realms || helperWanted || realmsBroken) return;
    helperWanted = new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        if (!closed) realms.prepare();
        resolve();
      }, HELPER_BOOT_DELAY_MS);
      (timer as { unref?(): void }).unref?.();
    });
  };
  const inspectTimeoutMs = options.inspectTimeoutMs ?? INSPECT_TIMEOUT_MS;
  // Every invocation and process in flight, so interrupt() reaches all of them.
  const active = new Set<AbortController>();
  let closed = false;
  // A module's process.chdir() or process.umask() lasts for its own call only.
  const restoreProcessState = keepProcessState();

  /** Runs one call in a worker of its own; the runtime's interrupt and close reach it. */
  async function runInWorker(message: CallMessage, controller: AbortController, serve?: (buffer: SharedArrayBuffer) => BridgeServer): Promise<WorkerOutcome> {
    active.add(controller);
    try {
      return await runWorkerCall(spawnWorker(), message, controller.signal, serve);
    } finally {
      active.delete(controller);
      restoreProcessState();
    }
  }

  /** One invocation in a new realm of the helper, with its ctx served from this thread as for a worker. */
  async function runInRealm(request: InvokeRequest, controller: AbortController): Promise<RealmReply> {
    const { context } = request;
    active.add(controller);
    try {
      return await realms!.run(
        { kind: "call", mode: "invoke", modulePath: request.modulePath, exportName: request.exportName, args: request.args, data: context.data },
        (buffer) => serveBridge(buffer, createCtxHandler(scopeOf(context, controller.signal))),
        controller.signal,
      );
    } finally {
      active.delete(controller);
      restoreProcessState();
    }
  }

  const runtime: Runtime = {
    async invoke(request: InvokeRequest): Promise<Outcome> {
      const { context } = request;
      if (closed || context.signal.aborted) return { kind: "interrupted" };
      const controller = new AbortController();
      const unlink = link(context.signal, controller);
      // Once the helper is wanted, a call boots it if it is not there (not yet, or ended by an interrupt or an
      // exit) and waits for it: a worker started beside a booting helper would cost both their memory.
      if (helperWanted && !realmsBroken) realms!.prepare();
      if (realms?.available() && !realmsBroken) {
        const reply = await runInRealm(request, controller).catch((error: unknown) => {
          unlink();
          throw error;
        });
        if (reply.kind !== "unavailable") {
          unlink();
          return outcomeOf(reply);
        }
        // Our own failure, before any of the call ran: this call and every later one get a worker.
        realmsBroken = true;
        realms.close();
        context.frontEnd.log(`rienda: ${reply.message}; tools and hooks run in workers from now on`);
      }
      try {
        const reply = await runInWorker(
          { kind: "call", mode: "invoke", modulePath: request.modulePath, exportName: request.exportName, args: request.args, data: context.data },
          controller,
          (buffer) => serveBridge(buffer, createCtxHandler(scopeOf(context, controller.signal))),
        );
        return outcomeOf(reply);
      } finally {
        unlink();
        // Calls keep coming (a chat, mcp serve): the next ones run in realms.
        if (!closed) useRealms();
      }
    },

    async inspect(modulePath: string): Promise<InspectOutcome> {
      if (closed) return { kind: "interrupted" };
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, inspectTimeoutMs);
      try {
        const reply = await runInWorker({ kind: "call", mode: "inspect", modulePath }, controller);
        if (reply.kind === "inspected") return { kind: "loaded", shape: reply.shape };
        if (reply.kind === "interrupted") {
          return timedOut ? { kind: "load-failed", message: `the module did not finish loading within ${inspectTimeoutMs} ms` } : reply;
        }
        if (reply.kind === "load-failed" || reply.kind === "threw" || reply.kind === "crashed") return { kind: "load-failed", message: reply.message };
        return { kind: "load-failed", message: "the context answered in an unexpected way" };
      } finally {
        clearTimeout(timer);
      }
    },

    async inspectAll(modulePaths: readonly string[]): Promise<InspectOutcome[]> {
      const out: InspectOutcome[] = new Array(modulePaths.length);
      const controller = new AbortController();
      active.add(controller);
      const timeoutFailure = { kind: "load-failed", message: `the module did not finish loading within ${inspectTimeoutMs} ms` } as const;
      /**
       * Looks at the modules at `indices` in lanes, one after another: the
       * world is compared once, after the last (no module changes it, as a
       * rule). When it changed, the modules after the first are looked at
       * again, comparing before each, and each change starts a new worker.
       */
      const lane = async (indices: number[], compareEach: boolean): Promise<void> => {
        let rest = indices;
        while (rest.length > 0) {
          if (closed || controller.signal.aborted) {
            for (const i of rest) out[i] = { kind: "interrupted" };
            return;
          }
          const { outcomes, end } = await runInspectLane(spawnWorker(), rest.map((i) => modulePaths[i]!), { timeoutMs: inspectTimeoutMs, signal: controller.signal, compareEach });
          restoreProcessState();
          outcomes.forEach((outcome, at) => {
            out[rest[at]!] = outcome.kind === "inspected" ? { kind: "loaded", shape: outcome.shape } : outcome;
          });
          switch (end.kind) {
            case "listed":
              if (!end.changed) return;
              rest = rest.slice(1);
              compareEach = true;
              break;
            case "tainted":
              rest = rest.slice(end.at);
              break;
            case "timeout":
              out[rest[end.at]!] = timeoutFailure;
              rest = rest.slice(end.at + 1);
              break;
            case "crashed":
              // Alone in a fresh worker, its own outcome (what ended the lane may
              // have been left behind by a module loaded before it).
              out[rest[end.at]!] = await runtime.inspect(modulePaths[rest[end.at]!]!);
              rest = rest.slice(end.at + 1);
              break;
            case "interrupted":
              for (const i of rest.slice(end.at)) out[i] = { kind: "interrupted" };
              return;
          }
        }
      };
      // Interleaved, so that lanes get alike shares of a list sorted by name.
      const lanes = Math.min(INSPECT_LANES, modulePaths.length);
      const shares = Array.from({ length: lanes }, (_, l) => modulePaths.map((_, i) => i).filter((i) => i % lanes === l));
      try {
        await Promise.all(shares.map((indices) => lane(indices, false)));
      } finally {
        active.delete(controller);
      }
      return out;
    },

    async exec(request: ProcessRequest): Promise<ProcessResult> {
      const controller = new AbortController();
      const unlink = request.signal ? link(request.signal, controller) : () => {};
      if (closed) controller.abort();
      active.add(controller);
      try {
        return await runProcess({ ...request, signal: controller.signal });
      } finally {
        active.delete(controller);
        unlink();
      }
    },

    expectCalls() {
      if (!closed) useRealms();
    },

    settled: async () => {
      await helperWanted;
      await realms?.settled();
    },

    interrupt() {
      for (const controller of [...active]) controller.abort();
    },

    async close() {
      closed = true;
      for (const controller of [...active]) controller.abort();
      realms?.close();
    },
  };
  return runtime;
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
