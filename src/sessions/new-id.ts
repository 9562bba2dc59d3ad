/**
 * Session and entry ids: 26 characters of lowercase Crockford base32, the
 * ULID layout Go Rienda used. The first 10 characters encode the creation
 * time in milliseconds, so ids sort by creation time as plain strings; the
 * other 16 are random. One generator never repeats itself: within the same
 * millisecond it increments the random part, so its ids stay strictly
 * increasing.
 */
import { getRandomValues } from "node:crypto";
import type { IdGenerator } from "./types.ts";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const TIME_CHARS = 10;
const RANDOM_CHARS = 16;

/** What a generator reads from the outside; tests inject both. */
export interface IdSources {
  now?: () => number;
  random?: (count: number) => number[];
}

/** Creates an id generator whose ids are strictly increasing. */
export function createIdGenerator(sources: IdSources = {}): IdGenerator {
  const now = sources.now ?? Date.now;
  const random = sources.random ?? randomDigits;
  let lastTime = -1;
  let lastRandom: number[] = [];
  return () => {
    let time = now();
    const next = time <= lastTime ? increment(lastRandom) : undefined;
    if (next) {
      time = lastTime;
      lastRandom = next;
    } else {
      // A new millisecond, or (never in practice) 2^80 ids in one: move on to the next millisecond.
      if (time <= lastTime) time = lastTime + 1;
      lastRandom = random(RANDOM_CHARS).map((n) => n & 31);
    }
    lastTime = time;
    return encodeTime(time) + lastRandom.map((n) => ALPHABET[n]).join("");
  };
}

/** The creation time (ms since the epoch) encoded in an id of this format, else undefined. */
export function idTime(id: string): number | undefined {
  if (!/^[0-9a-hjkmnp-tv-z]{26}$/.test(id)) return undefined;
  let time = 0;
  for (const char of id.slice(0, TIME_CHARS)) time = time * 32 + ALPHABET.indexOf(char);
  return time;
}

function encodeTime(time: number): string {
  let out = "";
  let rest = Math.floor(time);
  for (let i = 0; i < TIME_CHARS; i++) {
    out = ALPHABET[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

/** Adds one to a base32 number; undefined when it would overflow. */
function increment(digits: number[]): number[] | undefined {
  const next = digits.slice();
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i]! < 31) {
      next[i] = next[i]! + 1;
      return next;
    }
    next[i] = 0;
  }
  return undefined;
}

function randomDigits(count: number): number[] {
  return Array.from(getRandomValues(new Uint8Array(count)));
}
