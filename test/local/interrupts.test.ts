/**
 * A real llama.cpp answer interrupted, and lost with the server, while it
 * streams (behind a pacing proxy: test/local/support/pacing-proxy.ts): the
 * partial text stays where the user saw it, the session stays readable and
 * continues with `-s` once the server is back.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { Instance, waitFor } from "../support/instance.ts";
import { jsonEvents } from "../support/scenario.ts";
import { messageEntries, sessionFile } from "../support/session-reader.ts";
import { startPacingProxy, type PacingProxy } from "./support/pacing-proxy.ts";
import { localConfig, puppetAgent, startLlamaServer, type LlamaServer } from "./support/llama-server.ts";

let server: LlamaServer | undefined;
let proxy: PacingProxy | undefined;
let inst: Instance | undefined;
afterEach(async () => {
  await proxy?.close();
  await server?.kill();
  inst?.dispose();
  proxy = server = inst = undefined;
});

async function setUp(retries?: number): Promise<{ server: LlamaServer; proxy: PacingProxy; inst: Instance }> {
  server = await startLlamaServer();
  proxy = await startPacingProxy(server.port);
  inst = new Instance();
  inst.config(localConfig(proxy.url, [], retries === undefined ? [] : [`retries: ${retries}`]));
  inst.agent("puppet", puppetAgent());
  return { server, proxy, inst };
}

describe("a llama.cpp answer cut short", () => {
  test("SIGINT mid-answer: exit 130, the text so far on stdout and kept in the session, and -s continues it", async () => {
    const { server, inst } = await setUp();
    const run = inst.start(["run", "-a", "puppet", "-p", "Say hello.", "--json"]);
    await waitFor(() => run.stdout().includes('"text_delta"'), 20_000, "the first words of the answer");
    run.kill("SIGINT");
    const r = await run.done;
    expect(r.code).toBe(130);
    const events = jsonEvents(r.stdout);
    const shown = events
      .filter((e) => e.type === "text_delta")
      .map((e) => String(e.text))
      .join("");
    expect(shown.length).toBeGreaterThan(0);
    expect("Hello from the puppet model.").toStartWith(shown);
    expect(shown).not.toBe("Hello from the puppet model.");
    expect(events.at(-1)).toMatchObject({ type: "run_end", reason: "interrupted" });

    inst.config(localConfig(server.url));
    const id = String(events.find((e) => e.type === "run_start")?.sessionId);
    const next = await inst.run(["run", "-s", id, "-p", "Say hello."]);
    expect(next.stdout).toBe("Hello from the puppet model.\n");
    expect(next.code).toBe(0);
    // The half-streamed answer is kept as far as it was shown, marked interrupted; the real server took it back with the note.
    const entries = messageEntries(sessionFile(inst.home, id));
    expect(entries.map((e) => e.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(entries[1]).toMatchObject({ interrupted: "user", blocks: [{ type: "text", text: shown }] });
  });

  test("the server killed mid-answer: a clear error, exit 1, and the session continues on a new server", async () => {
    const { server: first, proxy: paced, inst } = await setUp(0);
    const run = inst.start(["run", "-a", "puppet", "-p", "Say hello.", "--json"]);
    await waitFor(() => run.stdout().includes('"text_delta"'), 20_000, "the first words of the answer");
    await first.kill();
    paced.cut();
    const r = await run.done;
    expect(r.code).toBe(1);
    const events = jsonEvents(r.stdout);
    expect(events.at(-1)).toMatchObject({ type: "run_end", reason: "error" });
    expect(String((events.at(-1) as { message?: string }).message)).toMatch(
      /^provider "local" \(http:\/\/127\.0\.0\.1:\d+\/v1\): the connection to http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions broke mid-answer: .* \(not retried\)$/,
    );

    server = await startLlamaServer();
    inst.config(localConfig(server.url));
    const next = await inst.run([
      "run",
      "-s",
      String(events.find((e) => e.type === "run_start")?.sessionId),
      "-p",
      "Say hello.",
    ]);
    expect(next.stderr).not.toContain("rienda:");
    expect(next.stdout).toBe("Hello from the puppet model.\n");
    expect(next.code).toBe(0);
  });
});
