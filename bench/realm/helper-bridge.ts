/**
 * Prototype (issue 16): the node:vm helper worker's end of the ctx bridge. A
 * realm reaches the host only through these two functions, which take and
 * return strings (so no object of the helper's realm reaches a module), over
 * the same shared buffer and layout as the worker design.
 */
import { bridgeExchange } from "../../src/runtime/context/bridge-exchange.ts";
import { IDLE, INTERRUPT, STATE } from "../../src/runtime/bridge-layout.ts";

/** A request of one call (or one module looked at) to a helper, as the host sends it. */
export interface CallMessage {
  kind: "call";
  mode: "invoke" | "inspect";
  modulePath: string;
  exportName?: string;
  args?: unknown[];
  data?: unknown;
}

/** What the host asks of a helper: one call, or every module of a discovery in one go. */
export type HelperRequest = CallMessage | { kind: "inspect-all"; paths: string[] };

export interface HelperBridge {
  /** Takes the buffer the host sent at start. */
  attach(buffer: SharedArrayBuffer): void;
  /** Starts over for a new call: the state word back to IDLE, no interrupt. */
  reset(): void;
  /** A ctx request as JSON text; returns "R" + JSON answer, or "E"/"T" + message (the realm throws its own Error/TypeError). */
  hostCall(request: string): string;
  /** ctx.sleep: returns early once the call is interrupted. */
  hostSleep(ms: number): void;
}

export function createHelperBridge(): HelperBridge {
  let words: Int32Array;
  let exchange: (request: string) => string;
  return {
    attach(shared) {
      words = new Int32Array(shared, 0, 4);
      exchange = bridgeExchange(shared);
    },
    reset() {
      Atomics.store(words, STATE, IDLE);
      Atomics.store(words, INTERRUPT, 0);
    },
    hostCall(request) {
      // The shipped bridge answers "I" once the host stopped serving; this prototype's ctx knows E/T/R only.
      const answer = exchange(request);
      return answer === "I" ? "Ethe call was interrupted" : answer;
    },
    hostSleep(ms) {
      if (ms > 0) Atomics.wait(words, INTERRUPT, 0, Number(ms));
    },
  };
}

/**
 * Source text run inside a realm by the set-up script of realm-worker.ts:
 * `call` (a ctx request through `hostCall`), `log`, and `makeCtx(data)`, the
 * ctx of a call. Expects `hostCall`, `hostSleep`, `stringify` and `parse` in
 * scope (the set-up script takes the last two before a module can patch them).
 */
export const CTX_SOURCE = `
  function call(op, ...args) {
    const answer = hostCall(stringify([op, ...args]));
    const kind = answer[0], text = answer.slice(1);
    if (kind === "R") return text === "" ? undefined : parse(text);
    throw kind === "T" ? new TypeError(text) : new Error(text);
  }
  function freeze(v) { if (v && typeof v === "object" && !Object.isFrozen(v)) { Object.freeze(v); for (const k of Object.keys(v)) freeze(v[k]); } return v; }
  const safe = (v) => { if (typeof v === "string") return v; try { const j = stringify(v); if (j !== undefined) return j; } catch {} return String(v); };
  const log = (...parts) => { call("log", parts.map(safe).join(" ")); };
  const makeCtx = (data) => ({
    workdir: data.workdir, session: data.session, agent: data.agent, config: freeze(data.config),
    log, sleep(ms) { hostSleep(Number(ms)); },
    confirm: (p) => call("confirm", p) === true, notify: (p) => void call("notify", p),
    file: { read: (p, o) => call("file.read", p, o), write: (p, d, o) => void call("file.write", p, d, o), exists: (p) => call("file.exists", p), list: (p, o) => call("file.list", p, o) },
    env: { get: (n) => call("env.get", n) },
    http: { fetch: (u, o) => call("http.fetch", u, o) },
    system: { exec: (c, o) => call("system.exec", c, o), which: (n) => call("system.which", n) },
  });
`;
