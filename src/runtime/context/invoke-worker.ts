/**
 * Entry of a worker context: one worker runs one invocation (or one
 * inspection, or one discovery lane) of CommonJS modules, then the host
 * terminates it. Calls get one where no realm serves them (see index.ts).
 *
 * A worker gets one message, the call (or the list) with its bridge
 * buffer; no user code runs before it, so each worker is as fresh as a
 * process of its own.
 *
 * What runs in the context (ctx, routing, supervision, the call) is the
 * context kernel (context-kernel.ts), shared with the ShadowRealm design;
 * this file is the worker's end: its messages, the bridge over the shared
 * buffer, parking.
 *
 * Invariants:
 * - The module under test is loaded with the global `require`, which
 *   resolves `node:` built-ins and the module's own `node_modules`.
 * - Every `ctx` call is synchronous: the request is written into a shared
 *   buffer, the host is woken, and this thread blocks in `Atomics.wait` until
 *   the answer is there (bridge-exchange.ts).
 * - Nothing the module does can reach the host except through that buffer
 *   and messages to the host, of which the first settles this worker's one
 *   call: a module that posts one itself answers only for its own call, or
 *   in a discovery lane for the modules of that lane (a realm shares its
 *   helper with later calls, hence the helper's nonce).
 * - No process the module starts outlives the call unless it leaves on
 *   purpose: the worker's spawn functions are wrapped before any module
 *   runs (superviseSpawns).
 */

import { bridgeExchange, bridgeWords } from "./bridge-exchange.ts";
import { contextKernel, type LoadFn } from "./context-kernel.ts";
import { KERNEL_PARTS } from "./kernel-source.ts";
import type { HostMessage, ListReply } from "../worker-messages.ts";

/** Deno cannot end a worker blocked in Atomics.wait (see park). */
const CAN_PARK = !("Deno" in globalThis);

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent) => void) | null;
  postMessage(message: unknown): void;
};
const send = (message: unknown) => scope.postMessage(message);

/** Bun (also compiled) has a global `require`; Deno only through node:module. */
const loader: LoadFn | Promise<LoadFn> =
  typeof require === "function"
    ? (require as LoadFn)
    : import("node:module").then((m) => (m as { createRequire(from: string): LoadFn }).createRequire(import.meta.url));

scope.onmessage = (event: MessageEvent) => {
  const message = event.data as HostMessage;
  // One call, one inspection or one list per worker.
  scope.onmessage = null;
  // Set up before any module runs; Deno's loader may still be coming (the kernel then patches without it).
  const k = contextKernel(
    bridgeExchange(message.buffer!),
    bridgeWords(message.buffer!),
    import.meta.url,
    typeof loader === "function" ? loader : undefined,
    KERNEL_PARTS,
  );
  const begin = (load: LoadFn) => {
    if (message.kind === "inspect-list") k.inspectList(message, load, (reply: ListReply) => send(reply));
    else {
      const reply = k.run(message, load);
      // Tells the host this worker runs nothing more (see park).
      if (message.mode === "invoke" && CAN_PARK) reply.parks = true;
      k.deliver(reply, send);
      if (message.mode === "invoke") park();
    }
  };
  if (typeof loader === "function") begin(loader);
  else void loader.then(begin);
};

/**
 * After its one call a worker runs nothing more: no timer, no promise
 * callback the module left behind. It blocks here until the host, which has
 * its reply, ends it. Deno cannot end a blocked worker, so there the worker
 * ends itself instead.
 */
function park(): void {
  if (CAN_PARK) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  // Deno: the worker ends itself, which drops what the module queued
  // (measured: a promise callback left behind would otherwise still run).
  else (globalThis as { close?(): void }).close?.();
}
