import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { createRuntime, type Runtime } from "../../src/runtime/index.ts";
import { Sandbox } from "./support.ts";
import { processRunning } from "../support/processes.ts";

let runtime: Runtime;
let box: Sandbox;
let server: Server;
let base = "";
beforeAll(async () => {
  runtime = createRuntime();
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      if (req.url === "/slow") return void setTimeout(() => res.end("late"), 2000);
      if (req.url === "/bytes") {
        res.end(Buffer.from([0x6f, 0x6b, 0xff]));
        return;
      }
      if (req.url === "/big") return void res.end("x".repeat(5 * 1024 * 1024));
      res.statusCode = req.url === "/missing" ? 404 : 201;
      res.setHeader("X-Echo-Method", req.method ?? "");
      res.setHeader("Set-Cookie", ["a=1", "b=2"]);
      res.end(JSON.stringify({ body, auth: req.headers.authorization ?? null }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  server.close();
  await runtime.close();
});
beforeEach(() => (box = new Sandbox()));
afterEach(() => box.dispose());

/** Polls until the condition holds, for at most 5 s (the assertion after it says what failed). */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
}

async function run(body: string, args: unknown = {}): Promise<unknown> {
  const outcome = await runtime.invoke({
    modulePath: box.tool("t", body),
    exportName: "execute",
    args: [args],
    context: box.context(),
  });
  if (outcome.kind === "threw") return { threw: outcome.message };
  if (outcome.kind !== "returned") throw new Error(`unexpected ${outcome.kind}`);
  return outcome.value;
}

describe("ctx.system.exec", () => {
  test("runs sh -c in the workdir and returns code, stdout and stderr", async () => {
    expect(await run("return ctx.system.exec('pwd; echo oops >&2; exit 3');")).toEqual({
      code: 3,
      stdout: `${box.workdir}\n`,
      stderr: "oops\n",
    });
  });

  test("honours cwd (relative to the workdir) and env (added to the environment)", async () => {
    mkdirSync(join(box.workdir, "sub"));
    const r = (await run(
      "return ctx.system.exec('pwd; echo $GREETING; test -n \"$PATH\" && echo has-path', { cwd: 'sub', env: { GREETING: 'hola' } });",
    )) as { stdout: string };
    expect(r.stdout).toBe(`${join(box.workdir, "sub")}\nhola\nhas-path\n`);
  });

  test("streams output to the front end while the command runs", async () => {
    let seenWhileRunning = false;
    box.onOutput = (text) => {
      // The command waits for this file before it ends: its first line must have arrived live.
      if (text.includes("first")) {
        seenWhileRunning = true;
        writeFileSync(join(box.workdir, "go"), "");
      }
    };
    const r = (await run(
      "return ctx.system.exec('echo first; while [ ! -f go ]; do sleep 0.01; done; echo second');",
    )) as { stdout: string };
    expect(seenWhileRunning).toBe(true);
    expect(r.stdout).toBe("first\nsecond\n");
    expect(box.recorded.output.map((o) => o.text).join("")).toBe("first\nsecond\n");
  });

  test("a timeout kills the whole process group and reports code -1", async () => {
    const r = (await run(
      "return ctx.system.exec('(sleep 30; echo survived > survivor.txt) & echo started; wait', { timeout_ms: 300 });",
    )) as { code: number; stdout: string };
    expect(r.code).toBe(-1);
    expect(r.stdout).toBe("started\n");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(existsSync(join(box.workdir, "survivor.txt"))).toBe(false);
  });

  test("a command started in the background ends with the call; one started with setsid does not", async () => {
    box.file("daemon.sh", "echo $$ > daemon.pid\nexec sleep 60\n");
    const r = (await run(
      "return ctx.system.exec('sleep 60 & echo $!; setsid sh daemon.sh >/dev/null 2>&1 & while [ ! -s daemon.pid ]; do sleep 0.01; done');",
    )) as { code: number; stdout: string };
    expect(r.code).toBe(0);
    const background = Number(r.stdout.trim());
    const daemon = Number(readFileSync(join(box.workdir, "daemon.pid"), "utf8").trim());
    try {
      await until(() => !processRunning(background));
      expect(processRunning(background)).toBe(false);
      expect(processRunning(daemon)).toBe(true);
    } finally {
      try {
        process.kill(daemon, "SIGKILL");
      } catch {}
    }
  });

  test("keeps the head and the tail of a huge output, says so, and streams all of it", async () => {
    let streamed = 0;
    box.onOutput = (text) => (streamed += text.length);
    const total = 20 * 1024 * 1024;
    const r = (await run(
      `return ctx.system.exec("printf START; head -c ${total} /dev/zero | tr '\\\\0' a; printf END; echo oops >&2");`,
    )) as Record<string, unknown>;
    const stdout = r.stdout as string;
    expect(r.code).toBe(0);
    expect(r.truncated).toBe(true);
    expect(r.stderr).toBe("oops\n");
    expect(stdout.startsWith("STARTaaa")).toBe(true);
    expect(stdout.endsWith("aaaEND")).toBe(true);
    const marker = /\n\[output truncated: (\d+) characters cut here\]\n/.exec(stdout);
    expect(marker).not.toBeNull();
    expect(stdout.length - marker![0].length).toBe(8 * 1024 * 1024);
    expect(Number(marker![1])).toBe(total + "STARTEND".length - 8 * 1024 * 1024);
    expect(streamed).toBe(total + "STARTEND".length + "oops\n".length);
    // Output within the cap comes back whole, with no flag.
    expect(await run("return ctx.system.exec('echo small');")).toEqual({ code: 0, stdout: "small\n", stderr: "" });
  });

  test("a process killed by a signal reports code -1", async () => {
    expect(await run("return ctx.system.exec('kill -9 $$').code;")).toBe(-1);
  });

  test("a missing cwd throws", async () => {
    expect(await run("return ctx.system.exec('true', { cwd: 'nope' });")).toEqual({
      threw: 'ctx.system.exec: cwd is not a directory: "nope"',
    });
  });
});

describe("ctx.system.which and ctx.env", () => {
  test("which returns an absolute path on PATH, or null", async () => {
    const sh = (await run("return ctx.system.which('sh');")) as string;
    expect(sh.startsWith("/")).toBe(true);
    expect(sh.endsWith("/sh")).toBe(true);
    expect(await run("return ctx.system.which('surely-not-a-command-xyz');")).toBeNull();
  });

  test("which accepts a path relative to the workdir", async () => {
    const path = box.file("bin/tool.sh", "#!/bin/sh\n");
    chmodSync(path, 0o755);
    expect(await run("return ctx.system.which('./bin/tool.sh');")).toBe(path);
  });

  test("env.get returns the value or null", async () => {
    process.env.RIENDA_TEST_VALUE = "v1";
    expect(await run("return [ctx.env.get('RIENDA_TEST_VALUE'), ctx.env.get('RIENDA_TEST_UNSET_XYZ')];")).toEqual([
      "v1",
      null,
    ]);
  });
});

describe("ctx.http.fetch", () => {
  test("returns any status with lower-case headers and the body", async () => {
    const r = (await run(
      `return ctx.http.fetch('${base}/missing', { method: 'POST', headers: { Authorization: 'Bearer t' }, body: 'payload' });`,
    )) as {
      status: number;
      headers: Record<string, string>;
      body: string;
    };
    expect(r.status).toBe(404);
    expect(r.headers["x-echo-method"]).toBe("POST");
    expect(r.headers["set-cookie"]).toContain("a=1");
    expect(JSON.parse(r.body)).toEqual({ body: "payload", auth: "Bearer t" });
  });

  test("replaces invalid UTF-8 in the body and carries large bodies whole", async () => {
    expect(await run(`return ctx.http.fetch('${base}/bytes').body;`)).toBe("ok\uFFFD");
    expect(await run(`return ctx.http.fetch('${base}/big').body.length;`)).toBe(5 * 1024 * 1024);
  });

  test("honours timeout_ms", async () => {
    const r = (await run(`return ctx.http.fetch('${base}/slow', { timeout_ms: 100 });`)) as { threw: string };
    expect(r.threw).toContain("timed out after 100 ms");
  });

  test("a connection failure throws a message naming the request", async () => {
    const r = (await run("return ctx.http.fetch('http://127.0.0.1:1/');")) as { threw: string };
    expect(r.threw).toStartWith("ctx.http.fetch: GET http://127.0.0.1:1/ failed");
  });
});

describe("top-level ctx members", () => {
  test("workdir, session, agent and a read-only config", async () => {
    const r = (await run(
      "try { ctx.config.config = 1; } catch (e) {} return { w: ctx.workdir, s: ctx.session, a: ctx.agent.config, p: ctx.agent.systemPrompt, c: ctx.config, frozen: Object.isFrozen(ctx.config.config.t) };",
    )) as Record<string, unknown>;
    expect(r.w).toBe(box.workdir);
    expect(r.s).toEqual({ id: "sess-1", agentId: "coder", modelId: "local/llama", workdir: box.workdir });
    expect(r.a).toEqual({ t: { level: 2 } });
    expect(r.p).toBe("be brief");
    expect(r.c).toEqual({ config: { t: { min: 3 } } });
    expect(r.frozen).toBe(true);
  });

  test("log streams to the front end in order with process output", async () => {
    await run("ctx.log('one'); ctx.system.exec('echo two'); ctx.log('three'); return '';");
    expect(box.recorded.logs).toEqual(["one", "three"]);
    expect(box.recorded.output.map((o) => o.text)).toEqual(["two\n"]);
  });

  test("confirm returns the front end's answer and notify shows a notice", async () => {
    box.answer = false;
    expect(
      await run("ctx.notify({ title: 'T', body: 'B' }); return ctx.confirm({ title: 'Publish', body: 'sure?' });"),
    ).toBe(false);
    expect(box.recorded.questions).toEqual([{ title: "Publish", body: "sure?" }]);
    expect(box.recorded.notices).toEqual([{ title: "T", body: "B" }]);
  });

  test("sleep returns nothing and takes any argument (how long it waits is for bench/, an interrupt ending it for interrupt.test.ts)", async () => {
    expect(
      await run(
        "return [ctx.sleep(5), ctx.sleep(0), ctx.sleep(-1), ctx.sleep('x'), ctx.sleep(), ctx.sleep('2')].map((v) => typeof v);",
      ),
    ).toEqual(Array(6).fill("undefined"));
  });

  test("ctx calls keep working after many round trips", async () => {
    box.file("f.txt", "x");
    expect(await run("let n = 0; for (let i = 0; i < 2000; i++) if (ctx.file.exists('f.txt')) n++; return n;")).toBe(
      2000,
    );
  });
});
