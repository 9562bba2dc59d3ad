import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createRuntime, type Runtime } from "../../src/runtime/index.ts";
import { Sandbox } from "./support.ts";

let runtime: Runtime;
let box: Sandbox;
beforeAll(() => (runtime = createRuntime()));
afterAll(() => runtime.close());
beforeEach(() => (box = new Sandbox()));
afterEach(() => box.dispose());

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitUntil(predicate: () => boolean): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > 10_000) throw new Error("condition never held");
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("interrupts", () => {
  test("aborting the signal ends a worker stuck in while (true) {}", async () => {
    const controller = new AbortController();
    const started = box.file("started", "");
    const path = box.tool("spin", `require('node:fs').rmSync(${JSON.stringify(started)}); while (true) {}`);
    const pending = runtime.invoke({
      modulePath: path,
      exportName: "execute",
      args: [{}],
      context: box.context(controller.signal),
    });
    await waitUntil(() => !existsSync(started));
    controller.abort();
    expect(await pending).toEqual({ kind: "interrupted" });
  });

  test("interrupt() ends a worker blocked in ctx.system.exec and kills its process group", async () => {
    const path = box.tool("blocked", "return ctx.system.exec('sleep 60 & echo $! > child.pid; wait');");
    const pending = runtime.invoke({ modulePath: path, exportName: "execute", args: [{}], context: box.context() });
    const pidFile = join(box.workdir, "child.pid");
    await waitUntil(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "");
    const child = Number(readFileSync(pidFile, "utf8").trim());
    expect(alive(child)).toBe(true);
    runtime.interrupt();
    expect(await pending).toEqual({ kind: "interrupted" });
    await waitUntil(() => !alive(child));
    expect(alive(child)).toBe(false);
  });

  test("an interrupt during ctx.sleep or a pending confirm ends the invocation", async () => {
    for (const body of ["ctx.sleep(60000); return 'slept';", "return ctx.confirm({ title: 'never answered' });"]) {
      const controller = new AbortController();
      const context = box.context(controller.signal);
      if (body.includes("confirm")) context.frontEnd.confirm = () => new Promise(() => {});
      const pending = runtime.invoke({
        modulePath: box.tool("wait", body),
        exportName: "execute",
        args: [{}],
        context,
      });
      setTimeout(() => controller.abort(), 50);
      expect(await pending).toEqual({ kind: "interrupted" });
    }
  });

  test("a call interrupted while a ctx call waits does nothing after it", async () => {
    const marker = join(box.workdir, "went-on");
    const started = box.file("started", "");
    const path = box.tool(
      "goes-on",
      `const fs = require('node:fs');
       fs.rmSync(${JSON.stringify(started)});
       let r;
       try { r = ctx.system.exec('sleep 5'); } catch (e) { r = e.message; }
       fs.writeFileSync(${JSON.stringify(marker)}, JSON.stringify(r));
       return 'went on';`,
    );
    const controller = new AbortController();
    const pending = runtime.invoke({
      modulePath: path,
      exportName: "execute",
      args: [{}],
      context: box.context(controller.signal),
    });
    await waitUntil(() => !existsSync(started));
    await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    expect(await pending).toEqual({ kind: "interrupted" });
    await new Promise((r) => setTimeout(r, 200));
    expect(existsSync(marker) ? readFileSync(marker, "utf8") : "nothing").toBe("nothing");
  });

  test("an already aborted signal starts nothing", async () => {
    const controller = new AbortController();
    controller.abort();
    const marker = join(box.workdir, "ran");
    const path = box.tool("never", `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x');`);
    expect(
      await runtime.invoke({
        modulePath: path,
        exportName: "execute",
        args: [{}],
        context: box.context(controller.signal),
      }),
    ).toEqual({
      kind: "interrupted",
    });
    expect(existsSync(marker)).toBe(false);
  });

  test("the runtime keeps working after an interrupt", async () => {
    runtime.interrupt();
    const outcome = await runtime.invoke({
      modulePath: box.tool("ok", "return 'fine';"),
      exportName: "execute",
      args: [{}],
      context: box.context(),
    });
    expect(outcome).toMatchObject({ value: "fine" });
  });

  test("exec processes started through the runtime die with interrupt()", async () => {
    const pending = runtime.exec({ command: "sleep 60", cwd: box.workdir });
    setTimeout(() => runtime.interrupt(), 50);
    const result = await pending;
    expect(result.code).toBe(-1);
    expect(result.interrupted).toBe(true);
  });
});
