/**
 * A provider that streams something unusual: every recording of the corpus
 * (test/corpus, real providers' streams), damaged at the level of its SSE
 * events in seeded ways (an event dropped, doubled or moved, its JSON cut
 * or given fields of other types, comments and unknown events mixed in, a
 * huge line, other line ends), served to the built binary. Each run must
 * end as a run does (0, or 1 with `rienda:` lines and a run_end), never
 * with a stack trace or an internal error, and the session it leaves must
 * continue with the next prompt.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { internalFailure, seededRandom as generator } from "../support/fuzz.ts";
import { Instance } from "../support/instance.ts";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";
import { listRecordings } from "../support/recorded-corpus.ts";
import { configFor } from "../support/scenario.ts";

setDefaultTimeout(300_000);

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(async () => {
  await server.close();
});

const ODD = [null, -1, 1e308, "", "x", [], {}, true, 0.5, "\u0000", { type: "unknown_thing" }];

/** Replaces one value somewhere inside `value` with something of another type. */
function retype(value: unknown, random: () => number): unknown {
  if (Array.isArray(value)) {
    if (value.length === 0) return ODD[Math.floor(random() * ODD.length)];
    const i = Math.floor(random() * value.length);
    return value.map((v, j) => (j === i ? retype(v, random) : v));
  }
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value);
    if (keys.length === 0) return ODD[Math.floor(random() * ODD.length)];
    const key = keys[Math.floor(random() * keys.length)]!;
    const copy = { ...(value as Record<string, unknown>) };
    if (random() < 0.2) delete copy[key];
    else copy[key] = random() < 0.5 ? retype(copy[key], random) : ODD[Math.floor(random() * ODD.length)];
    return copy;
  }
  return ODD[Math.floor(random() * ODD.length)];
}

/** Damages an SSE body once, event by event. */
function damage(body: string, random: () => number): string {
  const events = body.split(/\n\n/).filter((e) => e.trim() !== "");
  const at = Math.floor(random() * events.length);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  switch (Math.floor(random() * 9)) {
    case 0:
      events.splice(at, 1);
      break;
    case 1:
      events.splice(at, 0, events[at]!);
      break;
    case 2: {
      const [moved] = events.splice(at, 1);
      events.splice(Math.floor(random() * (events.length + 1)), 0, moved!);
      break;
    }
    case 3: // the JSON of one event cut short
      events[at] = events[at]!.slice(0, Math.max(1, Math.floor(random() * events[at]!.length)));
      break;
    case 4: {
      // one field given a value of another type
      events[at] = events[at]!.replace(/^data: (.*)$/m, (line, json: string) => {
        try {
          return `data: ${JSON.stringify(retype(JSON.parse(json), random))}`;
        } catch {
          return line;
        }
      });
      break;
    }
    case 5: // lines a server may send that carry nothing
      events.splice(
        at,
        0,
        pick([
          ": keep-alive",
          "event: ping\ndata: {}",
          "retry: 10",
          "id: 7",
          "data:",
          'event: something_new\ndata: {"type":"something_new"}',
        ]),
      );
      break;
    case 6: // a huge event
      events.splice(at, 0, `data: {"type":"unknown","pad":"${"p".repeat(1_000_000)}"}`);
      break;
    case 7:
      return events.join("\r\n\r\n").replace(/\n(?!\r)/g, "\r\n") + "\r\n\r\n";
    default:
      return damage(damage(body, random), random);
  }
  return `${events.join("\n\n")}\n\n`;
}

describe("damaged provider streams", () => {
  test("every recording damaged three ways: each run ends as a run does and its session goes on", async () => {
    const random = generator(4242);
    const failures: string[] = [];
    const seen = { ok: 0, failed: 0 };
    const recordings = listRecordings();
    for (const rec of recordings) {
      const inst = new Instance();
      try {
        inst.config(configFor(server.url, { protocol: rec.protocol }));
        inst.agent("coder", "---\ndescription: stream fuzz\nmodel: p/m\n---\nYou replay streams.\n");
        for (let i = 0; i < 3; i++) {
          const name = `${rec.protocol}/${rec.file} #${i}`;
          server.reset();
          // The damaged stream answers first; a retry or the request after a tool call gets a plain answer.
          server.script(
            { recorded: damage(rec.body, random) },
            { text: "plain answer" },
            { text: "plain answer" },
            { text: "plain answer" },
          );
          const r = await inst.run(["run", "-a", "coder", "-p", "go", "--json"], { killAfterMs: 60_000 });
          const lines = r.stdout
            .trim()
            .split("\n")
            .filter((l) => l !== "");
          let last: { type?: string; sessionId?: string } = {};
          let first: { type?: string; sessionId?: string } = {};
          try {
            first = JSON.parse(lines[0] ?? "{}") as typeof first;
            last = JSON.parse(lines[lines.length - 1] ?? "{}") as typeof last;
          } catch {
            failures.push(`${name}: stdout is not JSON lines: ${r.stdout.slice(0, 300)}`);
            continue;
          }
          const problem =
            r.signal !== null
              ? `ended by ${r.signal}`
              : r.code !== 0 && r.code !== 1
                ? `exit ${r.code}`
                : last.type !== "run_end"
                  ? "no run_end last"
                  : internalFailure(r.stderr + r.stdout);
          if (problem) {
            failures.push(
              `${name}: ${problem}\n--- stdout tail ---\n${r.stdout.slice(-400)}\n--- stderr ---\n${r.stderr.slice(0, 400)}`,
            );
            continue;
          }
          if (r.code === 0) seen.ok++;
          else seen.failed++;
          // The session the run left goes on.
          server.reset();
          server.script({ text: "next answer" });
          const next = await inst.run(["run", "-s", String(first.sessionId), "-p", "and now?"], {
            killAfterMs: 60_000,
          });
          if (next.code !== 0 || next.stdout !== "next answer\n")
            failures.push(`${name}: the session did not go on (exit ${next.code}): ${next.stderr.slice(0, 400)}`);
        }
      } finally {
        inst.dispose();
      }
    }
    expect(failures).toEqual([]);
    // The damage is real: some streams are refused, some survive.
    expect(seen.failed).toBeGreaterThan(5);
    expect(seen.ok).toBeGreaterThan(5);
  });
});
