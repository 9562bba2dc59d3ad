import { describe, expect, test } from "bun:test";
import { openLineEditor, type LineEditorOptions } from "../../../src/ui/chat/line-editor.ts";
import { fakeTerminal, tick, visible } from "./fake-terminal.ts";

function editor(extra: Partial<LineEditorOptions> = {}) {
  const { input, output } = fakeTerminal();
  const history: string[] = extra.history ?? [];
  const open = openLineEditor({
    input,
    output,
    prompt: "> ",
    continuationPrompt: "… ",
    history,
    bracketedPaste: true,
    ...extra,
  });
  return { input, output, history, open };
}

describe("the chat's line editor", () => {
  test("Enter sends the line", async () => {
    const { input, open } = editor();
    input.send("hello world\r");
    expect(await open.result).toEqual({ kind: "submit", text: "hello world" });
  });

  test("a line ending in a backslash continues on the next line, without the backslash", async () => {
    const { input, output, open } = editor();
    input.send("first\\\r");
    await tick();
    input.send("second\r");
    expect(await open.result).toEqual({ kind: "submit", text: "first\nsecond" });
    expect(visible(output.text)).toContain("… ");
  });

  test("Alt-Enter starts a new line instead of sending", async () => {
    const { input, open } = editor();
    input.send("one\u001b\r");
    await tick();
    input.send("two\r");
    expect(await open.result).toEqual({ kind: "submit", text: "one\ntwo" });
  });

  test("a bracketed paste keeps its lines and waits for Enter", async () => {
    const { input, output, open } = editor();
    input.send("\u001b[200~a\rb\\\rc\u001b[201~");
    await tick();
    let settled = false;
    void open.result.then(() => (settled = true));
    await tick();
    expect(settled).toBe(false);
    input.send(" and more\r");
    expect(await open.result).toEqual({ kind: "submit", text: "a\nb\\\nc and more" });
    expect(output.text).toContain("\u001b[?2004h");
    expect(output.text).toContain("\u001b[?2004l");
  });

  test("Ctrl-C reports whether it cleared typed text", async () => {
    const typed = editor();
    typed.input.send("draft");
    await tick();
    typed.input.send("\u0003");
    expect(await typed.open.result).toEqual({ kind: "interrupt", hadInput: true });
    expect(visible(typed.output.text)).toContain("^C");

    const empty = editor();
    empty.input.send("\u0003");
    expect(await empty.open.result).toEqual({ kind: "interrupt", hadInput: false });
  });

  test("Ctrl-D at an empty line is the end of input", async () => {
    const { input, open } = editor();
    input.send("\u0004");
    expect(await open.result).toEqual({ kind: "eof" });
  });

  test("text typed earlier is put on the line first", async () => {
    const { input, open } = editor({ initial: "typed " });
    input.send("later\r");
    expect(await open.result).toEqual({ kind: "submit", text: "typed later" });
  });

  test("cancel ends the editor from outside and leaves the terminal raw", async () => {
    const { input, open } = editor();
    open.cancel();
    expect(await open.result).toEqual({ kind: "cancelled" });
    expect(input.isRaw).toBe(true);
  });

  test("sent lines go into the history for the next editor", async () => {
    const first = editor();
    first.input.send("remember me\r");
    await first.open.result;
    expect(first.history[0]).toBe("remember me");
    const second = editor({ history: first.history });
    second.input.send("\u001b[A\r");
    expect(await second.open.result).toEqual({ kind: "submit", text: "remember me" });
  });
});
