import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, closeSync, lstatSync, openSync, readdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { createRuntime, type Runtime } from "../../src/runtime/index.ts";
import { Sandbox } from "./support.ts";

let runtime: Runtime;
let box: Sandbox;
beforeAll(() => (runtime = createRuntime()));
afterAll(() => runtime.close());
beforeEach(() => (box = new Sandbox()));
afterEach(() => box.dispose());

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

describe("ctx.file", () => {
  test("read resolves relative paths against the workdir", async () => {
    box.file("notes/a.txt", "héllo wörld");
    expect(await run("return ctx.file.read('notes/a.txt');")).toBe("héllo wörld");
    expect(await run("return ctx.file.read(ctx.workdir + '/notes/a.txt', { encoding: 'utf8' });")).toBe("héllo wörld");
  });

  test("read takes utf8 under its usual spellings (and null as no choice); any other encoding is a TypeError", async () => {
    box.file("a.txt", "é");
    for (const encoding of ["utf8", "utf-8", "UTF-8", "UTF8", null]) {
      expect(await run(`return ctx.file.read('a.txt', { encoding: ${JSON.stringify(encoding)} });`)).toBe("é");
    }
    expect(
      await run(
        "try { ctx.file.read('a.txt', { encoding: 'latin1' }); } catch (e) { return e.name + ': ' + e.message; }",
      ),
    ).toBe('TypeError: ctx.file.read: unsupported encoding "latin1" (only "utf8")');
  });

  test("read replaces invalid UTF-8 instead of failing", async () => {
    box.file("bad.bin", new Uint8Array([0x61, 0xff, 0xfe, 0x62]));
    expect(await run("return ctx.file.read('bad.bin');")).toBe("a\uFFFD\uFFFDb");
  });

  test("read and write move files of many megabytes whole", async () => {
    const big = "0123456789abcdef".repeat(512 * 1024); // 8 MiB
    box.file("big.txt", big);
    expect(await run("const t = ctx.file.read('big.txt'); ctx.file.write('copy.txt', t); return t.length;")).toBe(
      big.length,
    );
    expect(readFileSync(join(box.workdir, "copy.txt"), "utf8") === big).toBe(true);
  }, 60_000);

  test("a named pipe is refused at once, read or appended to, instead of blocking the host for ever", async () => {
    execFileSync("mkfifo", [join(box.workdir, "pipe")]);
    const refused =
      'ctx.file.%s: not a regular file (a named pipe, a socket or a device, which could block for ever): "pipe"';
    expect(await run("return ctx.file.read('pipe');")).toEqual({ threw: refused.replace("%s", "read") });
    expect(await run("ctx.file.write('pipe', 'x', { append: true });")).toEqual({
      threw: refused.replace("%s", "write"),
    });
    expect(await run("return ctx.file.read('/dev/zero');")).toEqual({
      threw:
        'ctx.file.read: not a regular file (a named pipe, a socket or a device, which could block for ever): "/dev/zero"',
    });
  });

  test("a .gitignore that is a named pipe does not freeze a listing: it is not read, the rest is listed", async () => {
    execFileSync("mkfifo", [join(box.workdir, ".gitignore")]);
    await run("ctx.file.write('kept.txt', 'x');");
    const names = (await run("return ctx.file.list('.', { recursive: false }).map((e) => e.name);")) as string[];
    expect(names).toContain("kept.txt");
  });

  test("read of a missing file throws a message naming the path as given", async () => {
    expect(await run("return ctx.file.read('nope.txt');")).toEqual({
      threw: 'ctx.file.read: no such file or directory: "nope.txt"',
    });
  });

  test("write creates parent directories, truncates by default and appends on request", async () => {
    await run(
      "ctx.file.write('a/b/c.txt', 'one'); ctx.file.write('a/b/c.txt', 'two'); ctx.file.write('a/b/c.txt', '+', { append: true });",
    );
    expect(readFileSync(join(box.workdir, "a/b/c.txt"), "utf8")).toBe("two+");
  });

  test("a whole-file write replaces the file at once, keeping its mode and its links", async () => {
    const path = box.file("kept.sh", "old content");
    chmodSync(path, 0o750);
    symlinkSync("kept.sh", join(box.workdir, "link.sh"));
    // A reader that opened the file before the write sees the old content
    // whole: the new content went to another file, renamed over this one.
    const before = openSync(path, "r");
    try {
      await run("ctx.file.write('kept.sh', 'new content'); ctx.file.write('link.sh', 'through the link');");
      expect(readFileSync(before, "utf8")).toBe("old content");
    } finally {
      closeSync(before);
    }
    expect(readFileSync(path, "utf8")).toBe("through the link");
    expect(statSync(path).mode & 0o777).toBe(0o750);
    expect(lstatSync(join(box.workdir, "link.sh")).isSymbolicLink()).toBe(true);
    // Nothing temporary is left behind, and an append still appends in place.
    const appendedTo = openSync(path, "r");
    try {
      await run("ctx.file.write('kept.sh', '!', { append: true });");
      expect(readFileSync(appendedTo, "utf8")).toBe("through the link!");
    } finally {
      closeSync(appendedTo);
    }
    expect(readdirSync(box.workdir).sort()).toEqual(["kept.sh", "link.sh"]);
    // A folder is not replaced by a file.
    box.file("folder/inside.txt", "x");
    expect(await run("return ctx.file.write('folder', 'x');")).toEqual({
      threw: 'ctx.file.write: is a directory: "folder"',
    });
    expect(readFileSync(join(box.workdir, "folder/inside.txt"), "utf8")).toBe("x");
  });

  test("write refuses data that is not a string with a TypeError", async () => {
    expect(await run("try { ctx.file.write('x', 42); } catch (e) { return e.name + ': ' + e.message; }")).toBe(
      "TypeError: ctx.file.write: data must be a string",
    );
  });

  test("exists sees files and directories", async () => {
    box.file("d/f.txt", "x");
    expect(await run("return [ctx.file.exists('d'), ctx.file.exists('d/f.txt'), ctx.file.exists('missing')];")).toEqual(
      [true, true, false],
    );
  });
});

describe("ctx.file.list", () => {
  test("lists recursively with workdir-relative, slash-separated paths", async () => {
    box.file("b.txt", "");
    box.file("a/x.txt", "");
    box.file("a/deep/y.txt", "");
    expect(await run("return ctx.file.list('.');")).toEqual([
      { name: "a", path: "a", isDir: true },
      { name: "deep", path: "a/deep", isDir: true },
      { name: "y.txt", path: "a/deep/y.txt", isDir: false },
      { name: "x.txt", path: "a/x.txt", isDir: false },
      { name: "b.txt", path: "b.txt", isDir: false },
    ]);
    expect(await run("return ctx.file.list('a', { recursive: false }).map(e => e.path);")).toEqual([
      "a/deep",
      "a/x.txt",
    ]);
  });

  test("honours every .gitignore and .ignore in the tree, deeper files overriding", async () => {
    box.file(".gitignore", "*.log\nbuild/\n");
    box.file("keep.txt", "");
    box.file("app.log", "");
    box.file("build/out.js", "");
    box.file("sub/.ignore", "secret.txt\n!important.log\n");
    box.file("sub/secret.txt", "");
    box.file("sub/important.log", "");
    box.file("sub/other.log", "");
    box.file(".git/HEAD", "");
    const paths = (await run("return ctx.file.list('.').map(e => e.path);")) as string[];
    expect(paths).toEqual([".gitignore", "keep.txt", "sub", "sub/.ignore", "sub/important.log"]);
    const inSub = (await run("return ctx.file.list('sub').map(e => e.path);")) as string[];
    expect(inSub).toEqual(["sub/.ignore", "sub/important.log"]);
  });

  test("respectIgnoreFiles: false lists everything", async () => {
    box.file(".gitignore", "*.log\n");
    box.file("app.log", "");
    const paths = (await run("return ctx.file.list('.', { respectIgnoreFiles: false }).map(e => e.path);")) as string[];
    expect(paths).toEqual([".gitignore", "app.log"]);
  });

  test("listing a file or a missing directory throws", async () => {
    box.file("f.txt", "");
    expect(await run("return ctx.file.list('f.txt');")).toEqual({ threw: 'ctx.file.list: not a directory: "f.txt"' });
    expect(await run("return ctx.file.list('gone');")).toEqual({
      threw: 'ctx.file.list: no such file or directory: "gone"',
    });
  });
});
