/**
 * The session tree as lines (`sessions show --tree`, the chats' `/tree`):
 * every message of every branch, the active branch marked.
 */
import type { AnswerCut } from "../providers/index.ts";
import type { BranchEntry, StoredSession } from "../sessions/index.ts";

/** How a partial answer is marked in transcripts and the tree. */
export function cutText(cut: AnswerCut): string {
  return cut === "limit" ? "cut short by a limit" : "interrupted";
}

/** One line of the tree for an entry: role and the first words. */
function label(entry: BranchEntry): string {
  if (entry.kind === "compaction") return "compaction";
  const calls = entry.blocks
    .filter((b) => b.type === "tool_call")
    .map((b) => (b.type === "tool_call" ? b.toolCallName : ""));
  if (entry.role === "user" && entry.blocks.some((b) => b.type === "tool_result")) return "tool results";
  const text = entry.blocks
    .map((b) => (b.type === "text" ? b.text : ""))
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
  const short = text.length > 60 ? `${text.slice(0, 59)}…` : text;
  const cut = entry.interrupted ? ` (${cutText(entry.interrupted)})` : "";
  return `${entry.role}${short ? `: ${short}` : ""}${calls.length > 0 ? ` → ${calls.join(", ")}` : ""}${cut}`;
}

/** One drawn line of the tree. */
export interface TreeLine {
  id: string;
  text: string;
  active: boolean;
}

/**
 * Every message of every branch, a chain of single children on one level
 * and each branch point's children drawn under it; `*` marks the active
 * branch and `(leaf)` its end. Linear in the file, whatever its shape (a
 * crafted file is not trusted, issue 39): no recursion (15,000 nested branch
 * points overflowed the stack), children gathered in place (50,000 roots
 * copied an array per child), and at most MAX_DRAWN_LEVELS levels of
 * indentation, deeper ones drawn at that width behind `[+N]` (N levels left
 * out), so the output grows with the lines, not with their depth.
 */
export function treeLines(stored: Pick<StoredSession, "entries" | "tree">): TreeLine[] {
  const nodes = stored.entries.filter((e): e is BranchEntry => e.kind === "message" || e.kind === "compaction");
  const children = new Map<string | null, BranchEntry[]>();
  for (const n of nodes) {
    // Switches on the chain are not drawn: a message after one is drawn under the message before it.
    const parent = stored.tree.shownParent(n.id);
    const kids = children.get(parent);
    if (kids) kids.push(n);
    else children.set(parent, [n]);
  }
  const branch = stored.tree.branch();
  const active = new Set(branch.map((e) => e.id));
  // The active leaf may be a switch: its end is then the last message before it.
  const leaf = branch.at(-1)?.id;
  const out: TreeLine[] = [];
  const line = (prefix: string, n: BranchEntry) =>
    out.push({
      id: n.id,
      active: active.has(n.id),
      text: `${prefix}${active.has(n.id) ? "*" : " "} ${n.id}  ${label(n)}${n.id === leaf ? "  (leaf)" : ""}`,
    });
  const roots = children.get(null) ?? [];
  const single = roots.length === 1;
  // Each branch to draw: its first node, the indentation above it, and its own connector and bar.
  const pending: Array<{ node: BranchEntry; above: Bars | undefined; connector: string; bar: string }> = roots
    .map((node, i) => {
      const last = i === roots.length - 1;
      return {
        node,
        above: undefined,
        connector: single ? "" : last ? "└─ " : "├─ ",
        bar: single ? "" : last ? "   " : "│  ",
      };
    })
    .reverse();
  for (let next = pending.pop(); next; next = pending.pop()) {
    const rest: Bars | undefined =
      next.bar === "" ? next.above : { bar: next.bar, up: next.above, depth: (next.above?.depth ?? 0) + 1 };
    let node: BranchEntry | undefined = next.node;
    line(barsText(next.above) + next.connector, node);
    const restText = barsText(rest);
    for (;;) {
      const kids: BranchEntry[] = children.get(node.id) ?? [];
      if (kids.length !== 1) {
        for (let i = kids.length - 1; i >= 0; i--) {
          const last = i === kids.length - 1;
          pending.push({ node: kids[i]!, above: rest, connector: last ? "└─ " : "├─ ", bar: last ? "   " : "│  " });
        }
        break;
      }
      node = kids[0]!;
      line(restText, node);
    }
  }
  return out;
}

/** The most levels of indentation drawn (three columns each). */
const MAX_DRAWN_LEVELS = 20;

/** The indentation of a branch: its bar, then its parent's, up to the root (a shared chain, never copied). */
interface Bars {
  bar: string;
  up: Bars | undefined;
  depth: number;
}

/** The indentation as drawn: the innermost MAX_DRAWN_LEVELS bars, behind `[+N] ` when N more are left out. */
function barsText(bars: Bars | undefined): string {
  const shown: string[] = [];
  let at = bars;
  for (; at && shown.length < MAX_DRAWN_LEVELS; at = at.up) shown.push(at.bar);
  const text = shown.reverse().join("");
  return at ? `[+${at.depth}] ${text}` : text;
}
