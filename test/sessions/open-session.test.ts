import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { RiendaError } from "../../src/errors.ts";
import { tempHome, createSession, openSession } from "./helpers.ts";

describe("opening a session", () => {
  let t: ReturnType<typeof tempHome>;
  beforeEach(() => (t = tempHome()));
  afterEach(() => t.dispose());

  test("an unknown id is a RiendaError naming it", () => {
    createSession({ home: t.home, workdir: t.workdir, agent: "a", model: "p/m" });
    let error: unknown;
    try {
      openSession({ home: t.home, id: "01nope", workdir: t.workdir });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RiendaError);
    expect((error as RiendaError).message).toBe('unknown session "01nope"');
    expect((error as RiendaError).code).toBe("session");
  });

  test("ids that are not plain file names are unknown sessions, never paths", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "a", model: "p/m" });
    const sneaky = `../${dirname(s.path).split("/").pop()}/${s.id}`;
    for (const id of [sneaky, "", ".", "..", "a/b", ".hidden"]) {
      expect(() => openSession({ home: t.home, id })).toThrow(`unknown session "${id}"`);
    }
  });

  test("finds a session of another workspace when it is not in this one", () => {
    const other = join(dirname(t.workdir), "elsewhere");
    const s = createSession({ home: t.home, workdir: other, agent: "a", model: "p/m" });
    const opened = openSession({ home: t.home, id: s.id, workdir: t.workdir });
    expect(opened.path).toBe(s.path);
    expect(opened.header.workdir).toBe(other);
  });

  test("a file whose header names another session is an error naming the file", () => {
    const s = createSession({ home: t.home, workdir: t.workdir, agent: "a", model: "p/m" });
    const copy = join(dirname(s.path), "01copy.jsonl");
    writeFileSync(copy, readFileSync(s.path));
    expect(() => openSession({ home: t.home, id: "01copy" })).toThrow(
      `session file ${copy} holds session "${s.id}", not "01copy"`,
    );
  });

  test("a header of an unknown format version is an error naming the file", () => {
    const dir = join(t.home, ".rienda", "sessions", "x-00000000");
    mkdirSync(dir, { recursive: true });
    const path = join(dir, "v2.jsonl");
    writeFileSync(path, `{"kind":"header","version":2,"id":"v2","agent":"a","model":"p/m"}\n`);
    expect(() => openSession({ home: t.home, id: "v2" })).toThrow(
      `session file ${path}: unsupported session format version 2`,
    );
  });

  test("a first line that is not a header is an error naming the file", () => {
    const dir = join(t.home, ".rienda", "sessions", "x-00000000");
    mkdirSync(dir, { recursive: true });
    const path = join(dir, "nohead.jsonl");
    writeFileSync(path, `{"kind":"message","id":"m"}\n`);
    expect(() => openSession({ home: t.home, id: "nohead" })).toThrow(
      `session file ${path}: line 1 is not a session header`,
    );
  });

  test("refuses to create a session without agent or model", () => {
    expect(() => createSession({ home: t.home, workdir: t.workdir, agent: " ", model: "p/m" })).toThrow(
      "without an agent",
    );
    expect(() => createSession({ home: t.home, workdir: t.workdir, agent: "a", model: "" })).toThrow("without a model");
  });

  test("every new session gets its own file, even when ids are asked for in the same millisecond", () => {
    const paths = new Set(
      Array.from(
        { length: 20 },
        () => createSession({ home: t.home, workdir: t.workdir, agent: "a", model: "p/m", now: () => 0 }).path,
      ),
    );
    expect(paths.size).toBe(20);
  });
});
