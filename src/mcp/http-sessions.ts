/**
 * The MCP sessions of `rienda mcp serve --http`, bounded in number and in
 * idle time, so that clients that go away without ending their session (a
 * crash, a kill, a client that never sends DELETE) do not keep memory,
 * workers and processes for as long as the server runs.
 *
 * A session is busy while one of its HTTP requests is open: a POST whose
 * answer is still streaming (a call that runs), or the GET stream a
 * connected client listens on. Once its last request has ended, it is idle;
 * idle for `idleMs`, it is closed (`onIdle`). A call whose POST was dropped
 * can no longer answer anyone, so it does not keep its session either.
 */

/** What the table needs of a session. */
interface Entry<S> {
  session: S;
  /** Requests of the session still open. */
  open: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** A response whose end the table waits for (node:http's ServerResponse). */
export interface Closable {
  once(event: "close", listener: () => void): unknown;
}

export class HttpSessions<S> {
  private readonly entries = new Map<string, Entry<S>>();
  /** Sessions being initialized: counted against the limit before they have an id. */
  private reserved = 0;

  constructor(
    private readonly limits: { maxSessions: number; idleMs: number },
    private readonly onIdle: (id: string, session: S) => void,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /**
   * Holds a place for a session about to be initialized; false when the
   * limit is reached. Every true is followed by `add` or `unreserve`.
   */
  reserve(): boolean {
    if (this.entries.size + this.reserved >= this.limits.maxSessions) return false;
    this.reserved++;
    return true;
  }

  /** Gives back a place `reserve` held, when no session came of it. */
  unreserve(): void {
    this.reserved = Math.max(0, this.reserved - 1);
  }

  /** A session initialized in a reserved place; idle from now until a request of it comes. */
  add(id: string, session: S): void {
    this.unreserve();
    const entry: Entry<S> = { session, open: 0, timer: undefined };
    this.entries.set(id, entry);
    this.arm(id, entry);
  }

  get(id: string): S | undefined {
    return this.entries.get(id)?.session;
  }

  /** Counts a request of session `id` as open until `response` closes. */
  hold(id: string, response: Closable): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    entry.open++;
    clearTimeout(entry.timer);
    entry.timer = undefined;
    response.once("close", () => {
      entry.open--;
      if (entry.open === 0 && this.entries.get(id) === entry) this.arm(id, entry);
    });
  }

  /** Forgets a session (ended by its client, or closed); its id is unknown from now on. */
  delete(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.entries.delete(id);
  }

  /** Every session, forgotten; for the server's end. */
  drain(): S[] {
    const all = [...this.entries.keys()].map((id) => this.entries.get(id)!.session);
    for (const id of [...this.entries.keys()]) this.delete(id);
    return all;
  }

  private arm(id: string, entry: Entry<S>): void {
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      if (this.entries.get(id) !== entry || entry.open > 0) return;
      this.delete(id);
      this.onIdle(id, entry.session);
    }, this.limits.idleMs);
    // An idle session's timer alone must not keep the process alive.
    (entry.timer as { unref?(): void }).unref?.();
  }
}
