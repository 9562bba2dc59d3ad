/** Where a capture dropped text: `dropped` characters were cut out at index `at` of the kept text. */
export interface Cut {
  at: number;
  dropped: number;
}

/** Text kept by a capture: all of it, or its head and its tail with the cut between them. */
export interface KeptText {
  text: string;
  cut?: Cut;
}

/**
 * Collects streamed text keeping at most `limit` characters: the first half
 * and the last half once it grows past that, so both how a command started
 * and how it ended survive. Memory stays bounded by the limit plus one chunk.
 */
export class BoundedText {
  private head = "";
  private tail: string[] = [];
  private tailLength = 0;
  private dropped = 0;
  private readonly headLimit: number;
  private readonly tailLimit: number;

  constructor(limit: number) {
    this.headLimit = Number.isFinite(limit) ? Math.ceil(limit / 2) : Number.POSITIVE_INFINITY;
    this.tailLimit = Number.isFinite(limit) ? Math.floor(limit / 2) : 0;
  }

  push(text: string): void {
    if (this.head.length < this.headLimit) {
      const room = this.headLimit - this.head.length;
      this.head += text.slice(0, room);
      text = text.slice(room);
      if (text === "") return;
    }
    this.tail.push(text);
    this.tailLength += text.length;
    // Drop whole chunks from the front while the rest still covers the limit.
    while (this.tail.length > 1 && this.tailLength - this.tail[0]!.length >= this.tailLimit) {
      const first = this.tail.shift()!;
      this.tailLength -= first.length;
      this.dropped += first.length;
    }
  }

  kept(): KeptText {
    let tail = this.tail.join("");
    let dropped = this.dropped;
    if (tail.length > this.tailLimit) {
      // Never cut between the halves of a surrogate pair.
      let start = tail.length - this.tailLimit;
      if (isLowSurrogate(tail.charCodeAt(start))) start++;
      dropped += start;
      tail = tail.slice(start);
    }
    let head = this.head;
    if (dropped > 0 && head.length > 0 && isHighSurrogate(head.charCodeAt(head.length - 1))) {
      head = head.slice(0, -1);
      dropped++;
    }
    return dropped === 0 ? { text: head + tail } : { text: head + tail, cut: { at: head.length, dropped } };
  }
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
