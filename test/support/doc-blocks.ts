/**
 * The code blocks of README.md and docs/*.md, and the markers that say how
 * each block showing program output is kept true: `<!-- checked by
 * <test file>[: <name>] -->` on the line before the fence (the named test
 * compares the block with what the program prints), or `<!-- illustrative:
 * <why> -->` (it needs something a test cannot have, such as a real model).
 * Never imports src/.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dir, "../..");

/** One fenced block of a document. */
export interface DocBlock {
  /** Path relative to the repository, e.g. `docs/hooks.md`. */
  doc: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  /** The block's text, without the fences and without the indentation of the fence. */
  body: string;
  /** The marker comment on the line before the fence, if any. */
  marker: { kind: "checked"; test: string; name?: string } | { kind: "illustrative"; why: string } | undefined;
}

/** README.md and every docs/*.md, relative to the repository. */
export function documents(): string[] {
  return [
    "README.md",
    ...readdirSync(join(ROOT, "docs"))
      .filter((f) => f.endsWith(".md"))
      .sort()
      .map((f) => `docs/${f}`),
  ];
}

/** Every fenced block of `doc`, in order. */
export function blocksOf(doc: string): DocBlock[] {
  const lines = readFileSync(join(ROOT, doc), "utf8").split("\n");
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]!); j++) {
      const line = lines[j]!;
      body.push(line.slice(Math.min(indent, line.length - line.trimStart().length)));
    }
    blocks.push({
      doc,
      line: i + 1,
      lang: open[2]!,
      body: body.map((l) => `${l}\n`).join(""),
      marker: markerOf(lines[i - 1] ?? ""),
    });
    i = j;
  }
  return blocks;
}

function markerOf(line: string): DocBlock["marker"] {
  const checked = /^\s*<!-- checked by (\S+?)(?:: (.+?))? -->\s*$/.exec(line);
  if (checked) return { kind: "checked", test: checked[1]!, ...(checked[2] ? { name: checked[2] } : {}) };
  const illustrative = /^\s*<!-- illustrative: (.+?) -->\s*$/.exec(line);
  if (illustrative) return { kind: "illustrative", why: illustrative[1]! };
  return undefined;
}

/** The block of `doc` marked `<!-- checked by <test>: <name> -->`; throws when there is none. */
export function markedBlock(doc: string, test: string, name: string): string {
  const found = blocksOf(doc).find(
    (b) => b.marker?.kind === "checked" && b.marker.test === test && b.marker.name === name,
  );
  if (!found) throw new Error(`${doc} has no block marked <!-- checked by ${test}: ${name} -->`);
  return found.body;
}

/**
 * Whether a block shows what a program prints: a text (or unlabeled, or
 * console) block with a line of the forms Rienda's output takes.
 */
export function showsOutput(block: DocBlock): boolean {
  if (!["text", "", "console"].includes(block.lang)) return false;
  return block.body.split("\n").some((line) => OUTPUT_LINE.test(line));
}

const OUTPUT_LINE =
  /^(rienda: |session:? |problem: |warning: |notice: |tool: |tool failed: |created |kept |hook "|\$ |> |\? |config {2,}|healthy|rienda \d|error: )/;

/**
 * Whether `actual` is what `shown` shows. In `shown`: `01k…` stands for a
 * session id, `...` inside a line for any text, and a `…` ending the block
 * (alone on its line, or after a space) for the rest, which the document
 * leaves out.
 */
export function matchesShown(actual: string, shown: string): boolean {
  let pattern = shown.replace(/\n$/, "");
  const more = /(^|[\n ])…$/.test(pattern);
  if (more) pattern = pattern.slice(0, -1);
  const escaped = pattern
    .split(/(01k…|\.\.\.)/)
    .map((part) =>
      part === "01k…" ? "[0-9a-z]{26}" : part === "..." ? ".*" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
    )
    .join("");
  return new RegExp(`^${escaped}${more ? "[\\s\\S]*" : "\\n?"}$`).test(actual);
}
