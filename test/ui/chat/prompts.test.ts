import { describe, expect, test } from "bun:test";
import { emitKeypressEvents } from "node:readline";
import { plainStyle } from "../../../src/ui/chat/chat-style.ts";
import { askYesNo, pickOne } from "../../../src/ui/chat/prompts.ts";
import { fakeTerminal, tick, visible } from "./fake-terminal.ts";

function io() {
  const { input, output } = fakeTerminal(60, 24);
  return { input, output, style: plainStyle };
}

describe("yes/no questions", () => {
  test("y answers yes, and the question shows its title and body", async () => {
    const t = io();
    const answer = askYesNo(t, "Publish", "Push the current branch?");
    await tick();
    t.input.send("y");
    expect(await answer).toBe(true);
    expect(visible(t.output.text)).toBe("? Publish\n  Push the current branch?\n  [y/N] yes\n");
  });

  test("Enter alone answers no (the default), as do n, Esc and Ctrl-C", async () => {
    for (const key of ["\r", "n", "\u0003"]) {
      const t = io();
      const answer = askYesNo(t, "Delete", "");
      await tick();
      t.input.send(key);
      expect(await answer).toBe(false);
      expect(visible(t.output.text)).toEndWith("[y/N] no\n");
    }
  });

  test("other keys are ignored until an answer comes", async () => {
    const t = io();
    const answer = askYesNo(t, "Go", "");
    await tick();
    t.input.send("x");
    await tick();
    t.input.send("Y");
    expect(await answer).toBe(true);
  });

  test("an abort closes the question with no", async () => {
    const t = io();
    const controller = new AbortController();
    const answer = askYesNo(t, "Go", "", controller.signal);
    await tick();
    controller.abort();
    expect(await answer).toBe(false);
    expect(visible(t.output.text)).toContain("no (interrupted)");
  });

  test("Ctrl-C that both aborts and is read as a key answers once", async () => {
    const t = io();
    const controller = new AbortController();
    // The turn's own watcher hears the key first, as in the chat, and aborts.
    emitKeypressEvents(t.input);
    t.input.on("keypress", (_text: string, key: { ctrl?: boolean; name?: string } | undefined) => {
      if (key?.ctrl && key.name === "c") controller.abort();
    });
    const answer = askYesNo(t, "Go", "", controller.signal);
    await tick();
    t.input.send("\u0003");
    await tick();
    expect(await answer).toBe(false);
    expect(visible(t.output.text)).toBe("? Go\n  [y/N] no (interrupted)\n");
  });

  test("the terminal is left raw and not reading", async () => {
    const t = io();
    const answer = askYesNo(t, "Go", "");
    await tick();
    t.input.send("y");
    await answer;
    expect(t.input.isRaw).toBe(true);
    expect(t.input.isPaused()).toBe(true);
  });
});

describe("picking from a list", () => {
  const choices = [
    { value: "coder", label: "coder — Writes code." },
    { value: "planner", label: "planner — Plans work." },
    { value: "writer", label: "writer — Writes prose." },
  ];

  test("shows every label and picks the highlighted one with Enter", async () => {
    const t = io();
    const picked = pickOne(t, "Which agent?", choices);
    await tick();
    expect(visible(t.output.text)).toContain(
      "❯ coder — Writes code.\n  planner — Plans work.\n  writer — Writes prose.",
    );
    t.input.send("\u001b[B");
    await tick();
    t.input.send("\u001b[B\r");
    expect(await picked).toBe("writer");
    expect(visible(t.output.text)).toEndWith("✔ Which agent? writer\n");
  });

  test("up wraps around, a number jumps, and the initial value starts highlighted", async () => {
    const t = io();
    const picked = pickOne(t, "Which?", choices, "planner");
    await tick();
    t.input.send("\u001b[A");
    await tick();
    t.input.send("\u001b[A\r");
    expect(await picked).toBe("writer");

    const u = io();
    const jumped = pickOne(u, "Which?", choices);
    await tick();
    u.input.send("2\r");
    expect(await jumped).toBe("planner");
  });

  test("Ctrl-C cancels", async () => {
    const t = io();
    const picked = pickOne(t, "Which?", choices);
    await tick();
    t.input.send("\u0003");
    expect(await picked).toBeUndefined();
    expect(visible(t.output.text)).toContain("(cancelled)");
  });

  test("after the terminal narrowed, the redraw clears every row the old list wraps onto, and happens at once", async () => {
    const t = io();
    const long = [0, 1, 2].map((i) => ({ value: `v${i}`, label: `${i} ${"x".repeat(68)}` }));
    const picked = pickOne(t, "Which?", long);
    await tick();
    // Drawn at 60 columns: "? Which?", three labels cut to 59 columns, the 47-column help line.
    t.output.columns = 30;
    t.output.emit("resize");
    await tick();
    // At 30 columns those lines take 1 + 3 * 2 + 2 rows (moving up 5 would leave 4 behind).
    expect(t.output.text).toContain("\u001b[9A");
    t.input.send("\r");
    expect(await picked).toBe("v0");
  });

  test("the list is redrawn in place with readline's cursor functions", async () => {
    const t = io();
    const picked = pickOne(t, "Which?", choices);
    await tick();
    t.input.send("j");
    await tick();
    t.input.send("\r");
    await picked;
    // 5 lines drawn (question, 3 choices, help), so each redraw moves up 5 lines first.
    expect(t.output.text.split("\u001b[5A").length - 1).toBe(2);
  });
});
