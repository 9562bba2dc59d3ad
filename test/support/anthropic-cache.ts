/**
 * A prompt cache that behaves the way Anthropic documents its own
 * (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching),
 * for the scripted provider: the prompt is the sequence tools → system →
 * message blocks; a `cache_control` block is a breakpoint; a request
 * reads the longest cached prefix found at a breakpoint or up to 20 blocks
 * before it, and writes the prefix of every breakpoint it carries. Prefixes
 * shorter than the minimum cacheable length are never cached. Tokens are
 * estimated as bytes / 4. Standalone (no src/ imports).
 */
import { createHash } from "node:crypto";

/** What Anthropic would report for one request. */
export interface CacheUsage {
  /** `input_tokens`: the part neither read from nor written to the cache. */
  input: number;
  cacheRead: number;
  cacheWrite: number;
  /** The whole prompt (the sum of the three). */
  total: number;
}

const LOOKBACK_BLOCKS = 20;

export class AnthropicCacheSim {
  private readonly cached = new Set<string>();

  /** `minTokens`: the smallest cacheable prefix (1024 for Sonnet and Opus models). */
  constructor(private readonly minTokens = 1024) {}

  /** Usage of one Messages API request body, updating the cache as Anthropic would. */
  account(body: unknown): CacheUsage {
    const units = unitsOf(body);
    const hashes: string[] = [];
    const tokens: number[] = [];
    let hash = "";
    let bytes = 0;
    for (const unit of units) {
      hash = createHash("sha256").update(hash).update(unit.text).digest("hex");
      bytes += Buffer.byteLength(unit.text);
      hashes.push(hash);
      tokens.push(Math.ceil(bytes / 4));
    }
    const total = tokens[tokens.length - 1] ?? 0;
    const breakpoints = units.flatMap((unit, i) => (unit.breakpoint ? [i] : []));
    let read = 0;
    for (const point of breakpoints) {
      for (let i = point; i >= Math.max(0, point - LOOKBACK_BLOCKS + 1); i--) {
        if (this.cached.has(hashes[i]!)) {
          read = Math.max(read, tokens[i]!);
          break;
        }
      }
    }
    let written = read;
    for (const point of breakpoints) {
      if (tokens[point]! < this.minTokens) continue;
      this.cached.add(hashes[point]!);
      written = Math.max(written, tokens[point]!);
    }
    const cacheWrite = written - read;
    return { input: total - read - cacheWrite, cacheRead: read, cacheWrite, total };
  }
}

interface Unit {
  text: string;
  breakpoint: boolean;
}

/** The prompt as cacheable blocks, in cache order, each without its marker. */
function unitsOf(body: unknown): Unit[] {
  const b = (body ?? {}) as {
    tools?: unknown[];
    system?: unknown;
    messages?: Array<{ role?: string; content?: unknown }>;
  };
  const units: Unit[] = [];
  const push = (value: unknown, prefix = "") => {
    const record = (value ?? {}) as Record<string, unknown>;
    const { cache_control, ...rest } = record;
    units.push({ text: prefix + JSON.stringify(rest), breakpoint: cache_control !== undefined });
  };
  for (const tool of b.tools ?? []) push(tool, "tool:");
  if (typeof b.system === "string") units.push({ text: `system:${b.system}`, breakpoint: false });
  else if (Array.isArray(b.system)) for (const block of b.system) push(block, "system:");
  for (const message of b.messages ?? []) {
    const content =
      typeof message.content === "string"
        ? [{ type: "text", text: message.content }]
        : Array.isArray(message.content)
          ? message.content
          : [];
    for (const block of content) push(block, `${message.role}:`);
  }
  return units;
}
