/**
 * A realm helper: one worker that runs many calls, one at a time, each in a
 * new ShadowRealm (Bun), where a worker per call would boot a whole engine
 * thread (docs/design/runtime-history.md, "Fresh contexts: a ShadowRealm per call").
 *
 * - The realm runs the context kernel from its source text (realmEntry,
 *   contextKernel and createValueCodec refer to nothing outside themselves),
 *   around three functions of this worker that take and return primitives:
 *   the ctx bridge (exchange), Atomics on the call's words (word), and the
 *   reply. Only primitives and functions cross a realm's edge.
 * - Once it serves, this worker never returns to its event loop: it waits
 *   for the next request in `Atomics.wait` on the control buffer and answers
 *   with postMessage, which needs no turn of the loop. So what a call leaves
 *   behind (a promise callback, a timer, an I/O callback) never runs, as in
 *   a worker that is ended when its call returns.
 * - Realms are made and set up ahead while no call waits (a stock of a
 *   few), so a call, even the seventh of a burst, costs little more than
 *   loading its module.
 * - Before the first realm, this worker's intrinsics are frozen
 *   (freeze-intrinsics.ts): Bun's `fs` hands a realm Buffers of this realm,
 *   and nothing done through one may reach the next call.
 * - A module that calls `process.exit` ends this worker (as it would end its
 *   own worker); the host reports that call as a worker's and starts another helper.
 */
import { bridgeExchange, bridgeWords } from "./bridge-exchange.ts";
import { CONTROL_DOORBELL, CONTROL_HEADER_BYTES, CONTROL_LENGTH, NONCE_LENGTH } from "../bridge-layout.ts";
import type { WordOp } from "./context-kernel.ts";
import { createValueCodec } from "./context-values.ts";
import { collectGarbage } from "../../platform.ts";
import { freezeIntrinsics } from "./freeze-intrinsics.ts";
import { kernelSource } from "./kernel-source.ts";
import { keepProcessState } from "../process-state.ts";
import { realmEntry, type RealmCall, type RealmSetup } from "./realm-entry.ts";

type Realm = { evaluate(source: string): unknown };

const scope = globalThis as unknown as {
  ShadowRealm: new () => Realm;
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
};

/** What a realm evaluates: its whole set-up, from our own source text. */
const SETUP_SOURCE = `(${realmEntry.toString()})(${kernelSource()}, ${createValueCodec.toString()})`;

const restoreProcessState = keepProcessState();
const selfUrl = import.meta.url;
/** For the answers this worker gives itself, in the form a realm gives them. */
const codec = createValueCodec();

/** The bridge over the buffer the host sent at start; a realm gets these two functions (see context-kernel.ts). */
let exchange: (request: string) => string;
let word: WordOp;
const decoder = new TextDecoder();

/**
 * The reply of the call in progress; the first one counts. It carries the
 * call's nonce, which the realm never sees: a realm can post messages to the
 * host too (its own `postMessage`, `worker_threads.parentPort`), and the
 * host takes only a reply with the nonce it sent, so no call can answer for
 * another (a hook's verdict, say).
 */
let replied = true;
let nonce = "";
function reply(text: string): void {
  if (replied) return;
  replied = true;
  scope.postMessage({ kind: "reply", nonce, text: String(text) });
}

/** A new realm, set up and waiting for its call. */
function prepare(): RealmCall {
  const setup = new scope.ShadowRealm().evaluate(SETUP_SOURCE) as RealmSetup;
  return setup(exchange, word, reply, selfUrl);
}

/**
 * Realms set up ahead, made while no call waits. A burst of calls (a tool
 * call and its hooks: 7 in a row) then takes one each and makes none
 * between them: making one costs about 0.4 ms, as much as the call itself,
 * and the next call of a burst comes within a fraction of that.
 */
const stock: RealmCall[] = [];
const STOCK = 8;
/**
 * How long the helper waits for the next call of a burst before it spends
 * time on a realm (ms). Measured with 3 + 3 hooks, tool calls 50 ms apart:
 * 5.7 ms per tool call with one realm made ahead, 2.8 ms with the stock
 * and this wait (docs/design/runtime-history.md).
 */
const BURST_GAP_MS = 2;

/**
 * A full collection of this worker's heap every GC_EVERY calls, while no
 * call waits, or in the way of one after GC_AT_LATEST calls without a
 * pause. Without it what the realms held is given back late (measured over
 * 1,000 calls back to back: RSS up 15 MB after 250 calls, 35 MB after
 * 1,000; with a collection every 100 calls, 13-22 MB throughout). A
 * collection costs 3-5 ms.
 */
const GC_EVERY = 100;
const GC_AT_LATEST = 200;
let callsSinceGc = 0;

/**
 * A call that leaves a promise callback behind keeps its realm, and all the
 * realm holds, alive in this worker's queue (the callback never runs): a
 * tool that left one holding 20 MB grew RSS by 20 MB a call, to 1.2 GB
 * after 60 calls. So when the heap passes COLLECT_AT after a call it is
 * collected, and when what is still alive then passes RETIRE_AT this
 * worker asks the host to replace it, which frees all of it (a worker per
 * call frees it with the worker).
 */
const COLLECT_AT = 64 * 1024 * 1024;
const RETIRE_AT = 32 * 1024 * 1024;
/** Given by the host at start; a realm cannot read it, so it cannot ask for a replacement itself. */
let secret = "";
let retiring = false;

const heapUsed = () => process.memoryUsage().heapUsed;

function collect(): void {
  collectGarbage();
  callsSinceGc = 0;
  if (!retiring && heapUsed() > RETIRE_AT) {
    retiring = true;
    scope.postMessage({ kind: "retire", secret });
  }
}

function run(request: string): void {
  replied = false;
  let call: RealmCall;
  try {
    call = stock.pop() ?? prepare();
  } catch (error) {
    // Our own set-up failed, not the module: the host runs the call in a worker instead.
    reply(
      codec.encode({
        kind: "unavailable",
        message: `a realm could not be set up: ${error instanceof Error ? error.message : String(error)}`,
      }),
    );
    return;
  }
  try {
    call(request);
  } catch (error) {
    // The realm's own errors reach here as a TypeError of this realm, without their message.
    replyFailure(`the context failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  // A call may change the directory and the file mode mask of the whole process: the next one starts with neither.
  restoreProcessState();
  if (!replied) replyFailure("the context did not answer");
}

function replyFailure(message: string): void {
  reply(codec.encode({ kind: "threw", message }));
}

function serve(control: SharedArrayBuffer): never {
  const bell = new Int32Array(control, 0, 2);
  const rung = () => Atomics.load(bell, CONTROL_DOORBELL) !== 0;
  for (;;) {
    // Right after a call, the next of its burst may be on its way: wait a moment before making realms.
    if (stock.length > 0) Atomics.wait(bell, CONTROL_DOORBELL, 0, BURST_GAP_MS);
    while (stock.length < STOCK && !rung()) {
      try {
        stock.push(prepare());
      } catch {
        // Made again when the call comes, where a failure is the call's answer.
        break;
      }
    }
    if ((callsSinceGc >= GC_EVERY && !rung()) || callsSinceGc >= GC_AT_LATEST) collect();
    while (!rung()) Atomics.wait(bell, CONTROL_DOORBELL, 0);
    const text = decoder.decode(
      new Uint8Array(control, CONTROL_HEADER_BYTES, Atomics.load(bell, CONTROL_LENGTH)).slice(),
    );
    Atomics.store(bell, CONTROL_DOORBELL, 0);
    nonce = text.slice(0, NONCE_LENGTH);
    run(text.slice(NONCE_LENGTH));
    callsSinceGc++;
    if (heapUsed() > COLLECT_AT) collect();
  }
}

scope.onmessage = (event: MessageEvent) => {
  const message = event.data as { kind: "init"; buffer: SharedArrayBuffer; control: SharedArrayBuffer; secret: string };
  secret = message.secret;
  exchange = bridgeExchange(message.buffer);
  word = bridgeWords(message.buffer);
  scope.onmessage = null;
  scope.postMessage({ kind: "ready" });
  serve(message.control);
};

// Before any realm (this module is evaluated before any message is handled).
freezeIntrinsics();
