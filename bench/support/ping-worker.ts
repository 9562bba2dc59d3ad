// One side of a raw Atomics ping-pong: the floor any ctx round trip is compared with.
const scope = globalThis as unknown as { onmessage: ((e: MessageEvent) => void) | null; postMessage(m: unknown): void };
scope.onmessage = (event: MessageEvent) => {
  const { buffer, role, rounds } = event.data as { buffer: SharedArrayBuffer; role: "ping" | "pong"; rounds: number };
  const word = new Int32Array(buffer);
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    if (role === "ping") {
      const t = performance.now();
      Atomics.store(word, 0, 1);
      Atomics.notify(word, 0);
      while (Atomics.load(word, 0) === 1) Atomics.wait(word, 0, 1);
      times.push((performance.now() - t) * 1000);
    } else {
      // Wait on the value just read: re-reading it could sleep on the 1 we are waiting for.
      for (let seen = Atomics.load(word, 0); seen !== 1; seen = Atomics.load(word, 0)) Atomics.wait(word, 0, seen);
      Atomics.store(word, 0, 2);
      Atomics.notify(word, 0);
    }
  }
  scope.postMessage(times);
};
