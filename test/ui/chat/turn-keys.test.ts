import { describe, expect, test } from "bun:test";
import { watchTurnKeys } from "../../../src/ui/chat/turn-keys.ts";
import { fakeTerminal, tick } from "./fake-terminal.ts";

describe("keys during a turn", () => {
  test("Ctrl-C calls back each time; typed text is kept for the next input", async () => {
    const { input } = fakeTerminal();
    let presses = 0;
    const keys = watchTurnKeys(input, () => presses++);
    expect(input.isRaw).toBe(true);
    input.send("hel");
    input.send("lo\u007f\u007fp!\r");
    input.send("\u0003");
    input.send("\u0003");
    await tick();
    expect(presses).toBe(2);
    expect(keys.dispose()).toBe("help!");
    expect(input.isPaused()).toBe(true);
  });

  test("while a question is open, keys are not kept but Ctrl-C still interrupts", async () => {
    const { input } = fakeTerminal();
    let presses = 0;
    const keys = watchTurnKeys(input, () => presses++);
    keys.suspend();
    input.send("y\u0003");
    await tick();
    keys.reclaim();
    input.send("ok");
    await tick();
    expect(presses).toBe(1);
    expect(keys.dispose()).toBe("ok");
  });
});
