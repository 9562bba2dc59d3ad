/**
 * Bad input never crashes: config.yaml, an agent file, a tool and a hook,
 * each damaged in many ways (a seeded generator, so a failure can be
 * replayed), and `rienda run` must either run or refuse with a message
 * written for the user, never a stack trace or an internal error. Each case
 * is one whole process against the scripted provider.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { internalFailure, seededRandom as generator } from "../support/fuzz.ts";
import { configFor, scenario, type Scenario } from "../support/scenario.ts";
import { sessionFile } from "../support/session-reader.ts";

setDefaultTimeout(240_000);

let s: Scenario;
beforeAll(async () => {
  s = await scenario();
});
afterAll(async () => {
  await s.dispose();
});

const ODD_VALUES = [
  "",
  "~",
  "null",
  "0",
  "-1",
  "1e309",
  "true",
  "[]",
  "{}",
  "[1, [2, {a: b}]]",
  "'x'",
  '"\\u0000"',
  "&a",
  "*nowhere",
  "!!binary AAAA",
  "|\n  block",
  "x".repeat(5000),
  "ü€😀",
  "\t",
  "0x10",
  ".nan",
  "2001-12-14t21:59:43.10-05:00",
  "? complex",
  "- - -",
];

/** Damages `text` once, in one of several ways. */
function damage(text: string, random: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const lines = text.split("\n");
  const at = Math.floor(random() * lines.length);
  switch (Math.floor(random() * 10)) {
    case 0: // a line gone
      return lines.filter((_, i) => i !== at).join("\n");
    case 1: // a line twice
      return [...lines.slice(0, at + 1), lines[at]!, ...lines.slice(at + 1)].join("\n");
    case 2: // indentation changed
      return lines.map((l, i) => (i === at ? (random() < 0.5 ? `  ${l}` : l.replace(/^\s{1,2}/, "")) : l)).join("\n");
    case 3: {
      // a value replaced by something of another type
      return lines
        .map((l, i) => (i === at && l.includes(":") ? `${l.slice(0, l.indexOf(":") + 1)} ${pick(ODD_VALUES)}` : l))
        .join("\n");
    }
    case 4: // cut anywhere
      return text.slice(0, Math.floor(random() * text.length));
    case 5: // bytes that are not text, or a byte-order mark
      return random() < 0.5 ? `\ufeff${text}` : text.slice(0, at) + "\u0000\u00ff\ud800" + text.slice(at);
    case 6: // Windows line ends, or tabs for indentation
      return random() < 0.5 ? text.replace(/\n/g, "\r\n") : text.replace(/^ {2}/gm, "\t");
    case 7: // a key renamed
      return lines
        .map((l, i) =>
          i === at
            ? l.replace(/^(\s*)([a-z_]+):/, (_m, sp: string, k: string) => `${sp}${k}${pick(["x", "_", "-", "S"])}:`)
            : l,
        )
        .join("\n");
    case 8: // an unknown key added
      return [
        ...lines.slice(0, at),
        `${lines[at]!.match(/^\s*/)![0]}${pick(["extra", "providers", "models", "tools", "hooks", "id"])}: ${pick(ODD_VALUES)}`,
        ...lines.slice(at),
      ].join("\n");
    default: // two damages
      return damage(damage(text, random), random);
  }
}

const AGENT = [
  "---",
  "description: A test agent.",
  "model: p/m",
  "tools: [shell, echo]",
  "hooks: [watch]",
  "---",
  "You are a test agent.",
  "",
].join("\n");
const TOOL = `module.exports = {\n  description: "Echoes.",\n  parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },\n  execute(ctx, args) { return args.text; },\n};\n`;
const HOOK = `module.exports = {\n  beforeToolExecute(ctx, call) { return { allow: true }; },\n  afterToolExecute(ctx, call, result) { return result; },\n};\n`;

interface Case {
  name: string;
  file: "config" | "agent" | "tool" | "hook";
  text: string;
}

function cases(): Case[] {
  const random = generator(20261201);
  const config = configFor(s.server.url);
  const out: Case[] = [];
  const kinds = [
    ["config", config],
    ["agent", AGENT],
    ["tool", TOOL],
    ["hook", HOOK],
  ] as const;
  for (const [file, text] of kinds) {
    for (let i = 0; i < 50; i++) out.push({ name: `${file} #${i}`, file, text: damage(text, random) });
  }
  return out;
}

describe("damaged input", () => {
  test("config.yaml, an agent, a tool or a hook damaged in 200 ways: the run works or refuses in words, never crashes", async () => {
    const config = configFor(s.server.url);
    const failures: string[] = [];
    const seen = { ran: 0, refused: 0 };
    for (const c of cases()) {
      s.server.reset();
      s.server.script({ toolCalls: [{ id: "t1", name: "echo", arguments: { text: "hi" } }] }, { text: "done" });
      s.inst.config(c.file === "config" ? c.text : config);
      s.inst.agent("coder", c.file === "agent" ? c.text : AGENT);
      s.inst.tool("echo", c.file === "tool" ? c.text : TOOL);
      s.inst.hook("watch", c.file === "hook" ? c.text : HOOK);
      const r = await s.inst.run(["run", "-a", "coder", "-p", "go"], { killAfterMs: 30_000 });
      const problem =
        r.signal !== null
          ? `ended by ${r.signal}`
          : r.code !== 0 && r.code !== 1
            ? `exit ${r.code}`
            : r.code === 1 && !/^rienda: /m.test(r.stderr)
              ? "a refusal without a rienda: line"
              : internalFailure(r.stderr);
      if (problem)
        failures.push(
          `${c.name}: ${problem}\n--- input ---\n${c.text.slice(0, 400)}\n--- stderr ---\n${r.stderr.slice(0, 800)}`,
        );
      if (r.code === 0) seen.ran++;
      else seen.refused++;
    }
    expect(failures).toEqual([]);
    // The damage is real: some runs are refused, and some damage is harmless.
    expect(seen.refused).toBeGreaterThan(40);
    expect(seen.ran).toBeGreaterThan(5);
  });

  test("a session file damaged in 60 ways: continuing it works and keeps every byte, or refuses and changes nothing", async () => {
    s.inst.config(configFor(s.server.url));
    s.inst.agent("coder", AGENT);
    s.inst.tool("echo", TOOL);
    s.inst.hook("watch", HOOK);
    s.server.reset();
    s.server.script({ toolCalls: [{ id: "t1", name: "echo", arguments: { text: "hi" } }] }, { text: "first answer" });
    const first = await s.inst.run(["run", "-a", "coder", "-p", "first prompt"]);
    expect(first.code).toBe(0);
    const id = /session: (\S+)/.exec(first.stderr)![1]!;
    const path = sessionFile(s.inst.home, id);
    const pristine = readFileSync(path, "utf8");
    const random = generator(1201);
    const failures: string[] = [];
    const seen = { ran: 0, refused: 0 };
    for (let i = 0; i < 60; i++) {
      writeFileSync(path, damage(pristine, random));
      // As it is on disk: text that cannot be UTF-8 (a lone surrogate) was written as U+FFFD.
      const damaged = readFileSync(path, "latin1");
      s.server.reset();
      s.server.script({ text: "next answer" });
      const r = await s.inst.run(["run", "-s", id, "-p", "next prompt"], { killAfterMs: 30_000 });
      const after = readFileSync(path, "latin1");
      // A torn last line (what a crash leaves) is the one thing a continuation may cut.
      const lines = damaged.split("\n");
      const lastWhole = damaged.endsWith("\n")
        ? damaged
        : lines.slice(0, -1).join("\n") + (lines.length > 1 ? "\n" : "");
      const problem =
        r.signal !== null
          ? `ended by ${r.signal}`
          : r.code !== 0 && r.code !== 1
            ? `exit ${r.code}`
            : r.code === 1 && !/^rienda: /m.test(r.stderr)
              ? "a refusal without a rienda: line"
              : r.code === 1 && after !== damaged
                ? "a refused continuation changed the file"
                : r.code === 0 && !after.startsWith(damaged) && !after.startsWith(lastWhole)
                  ? "a continuation lost bytes of the file"
                  : internalFailure(r.stderr);
      if (problem) failures.push(`case ${i}: ${problem}\n--- stderr ---\n${r.stderr.slice(0, 600)}`);
      if (r.code === 0) seen.ran++;
      else seen.refused++;
    }
    expect(failures).toEqual([]);
    expect(seen.refused).toBeGreaterThan(10);
    expect(seen.ran).toBeGreaterThan(3);
  });
});
