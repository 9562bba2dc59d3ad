/**
 * Data in (docs/pipelines.md): piped stdin and `-f` files travel with the
 * prompt, as each protocol's API takes them, byte for byte; they are stored
 * in the session, so `-s` continues with them; what cannot be sent is
 * refused before any request, naming the file.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PROTOCOLS, scenario, type Scenario } from "../support/scenario.ts";
import {
  messageEntries,
  sessionFile,
  sessionFiles as allSessionFiles,
  sessionIdFrom,
} from "../support/session-reader.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

/** A 1x1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
const PNG_B64 = PNG.toString("base64");
/** Enough of a PDF for its signature. */
const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
const PDF_B64 = PDF.toString("base64");

type Body = Record<string, unknown>;
const bodyOf = (index = 0): Body => s!.server.requests[index]!.body as Body;

/** The last user turn of a request, as its protocol carries it. */
function lastUser(body: Body, protocol: string): unknown {
  if (protocol === "openai_responses") {
    const input = body.input as { role?: string; content?: unknown }[];
    return input.filter((item) => item.role === "user").pop()?.content;
  }
  const messages = body.messages as { role: string; content: unknown }[];
  return messages.filter((m) => m.role === "user").pop()?.content;
}

const sessionIdOf = sessionIdFrom;
const sessionFiles = (): string[] => allSessionFiles(s!.inst.home);

const DOC = '<document name="stdin">\nline one\nline two\n</document>';

describe("piped stdin is data for the prompt", () => {
  for (const protocol of PROTOCOLS) {
    test(`a pipe's text goes before the prompt, delimited (${protocol})`, async () => {
      s = await scenario({ protocol });
      s.server.script({ text: "two lines" });
      const r = await s.inst.run(["run", "-a", "coder", "-p", "summarize this"], { stdinPipe: "line one\nline two" });
      expect(r.stderr).not.toContain("rienda:");
      expect(r.code).toBe(0);
      expect(r.stdout).toBe("two lines\n");
      const content = lastUser(bodyOf(), protocol);
      if (protocol === "openai_chat_completions") expect(content).toBe(`${DOC}\n\nsummarize this`);
      else if (protocol === "openai_responses")
        expect(content).toEqual([{ type: "input_text", text: `${DOC}\n\nsummarize this` }]);
      else
        expect(content).toEqual([
          { type: "text", text: DOC },
          { type: "text", text: "summarize this", cache_control: { type: "ephemeral" } },
        ]);
    });
  }

  test("the session holds the piped text as an attachment before the prompt", async () => {
    s = await scenario();
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "summarize"], { stdinPipe: "data\n" });
    const user = messageEntries(sessionFile(s.inst.home, sessionIdOf(r.stderr))).find(
      (e) => e.role === "user",
    ) as unknown as { blocks: unknown[] };
    expect(user.blocks).toEqual([
      { type: "attachment", name: "stdin", mediaType: "text/plain", text: "data\n" },
      { type: "text", text: "summarize" },
    ]);
  });

  test("a regular file on stdin (< file) is read as well", async () => {
    s = await scenario();
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "summarize"], { stdinFile: "from a file\n" });
    expect(r.code).toBe(0);
    expect(lastUser(bodyOf(), "openai_chat_completions")).toBe(
      '<document name="stdin">\nfrom a file\n</document>\n\nsummarize',
    );
  });

  test("--no-stdin leaves a pipe unread", async () => {
    s = await scenario();
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "summarize", "--no-stdin"], {
      stdinPipe: "not for rienda",
    });
    expect(r.code).toBe(0);
    expect(lastUser(bodyOf(), "openai_chat_completions")).toBe("summarize");
  });

  test("an empty pipe adds nothing", async () => {
    s = await scenario();
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "summarize"], { stdinPipe: "" });
    expect(r.code).toBe(0);
    expect(lastUser(bodyOf(), "openai_chat_completions")).toBe("summarize");
  });

  test("binary data on a pipe is refused, naming the problem; nothing is sent or written", async () => {
    s = await scenario();
    const r = await s.inst.run(["run", "-a", "coder", "-p", "summarize"], {
      stdinPipe: Buffer.from([0x41, 0x00, 0x42, 0xff]),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("rienda: stdin: cannot be attached: it holds binary data (a NUL byte at offset 1)");
    expect(s.server.requests).toHaveLength(0);
    expect(sessionFiles()).toHaveLength(0);
  });

  test("an image on a pipe is refused with the way to send it (-f -)", async () => {
    s = await scenario();
    const r = await s.inst.run(["run", "-a", "coder", "-p", "describe"], { stdinPipe: PNG });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "rienda: stdin: holds a PNG image, not text; to send it to the model, attach it with -f - (or -f FILE)",
    );
    expect(s.server.requests).toHaveLength(0);
  });

  test("a pipe that stays quiet gets a line on stderr, and is still waited for", async () => {
    s = await scenario();
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "summarize"], {
      stdinPipe: "late data",
      pipeDelayMs: 3600,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      "rienda: waiting for stdin: it is not a terminal and nothing has come yet; it is read as data for the prompt; run with --no-stdin (or < /dev/null) if it is not meant for Rienda",
    );
    expect(lastUser(bodyOf(), "openai_chat_completions")).toBe(
      '<document name="stdin">\nlate data\n</document>\n\nsummarize',
    );
  });

  test("-p - still reads stdin as the prompt itself", async () => {
    s = await scenario();
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "-"], { stdinPipe: "the prompt" });
    expect(r.code).toBe(0);
    expect(lastUser(bodyOf(), "openai_chat_completions")).toBe("the prompt");
  });

  test("text larger than the model's context window is refused before any request", async () => {
    s = await scenario({ modelExtra: "        context_window: 10" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "summarize"], { stdinPipe: "x".repeat(200) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "rienda: the attached text (stdin) is about 50 tokens, more than the context window of p/m (10 tokens, providers.p.models.m.context_window); attach less, or use a model with a larger window",
    );
    expect(s.server.requests).toHaveLength(0);
    expect(sessionFiles()).toHaveLength(0);
  });
});

describe("-f attaches files", () => {
  test("text files in the order given, each with its name, after piped stdin", async () => {
    s = await scenario();
    s.inst.file("a.txt", "alpha\n");
    s.inst.file("dir/b.md", "# beta");
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "compare", "-f", "a.txt", "--file", "dir/b.md"], {
      stdinPipe: "gamma",
    });
    expect(r.code).toBe(0);
    expect(lastUser(bodyOf(), "openai_chat_completions")).toBe(
      '<document name="stdin">\ngamma\n</document>\n\n<document name="a.txt">\nalpha\n</document>\n\n<document name="dir/b.md">\n# beta\n</document>\n\ncompare',
    );
  });

  for (const protocol of PROTOCOLS) {
    test(`an image goes as the API's image input (${protocol})`, async () => {
      s = await scenario({ protocol });
      writeFileSync(join(s.inst.workspace, "dot.png"), PNG);
      s.server.script({ text: "a dot" });
      const r = await s.inst.run(["run", "-a", "coder", "-p", "describe", "-f", "dot.png"]);
      expect(r.stderr).not.toContain("rienda:");
      expect(r.code).toBe(0);
      const content = lastUser(bodyOf(), protocol);
      if (protocol === "openai_chat_completions") {
        expect(content).toEqual([
          { type: "image_url", image_url: { url: `data:image/png;base64,${PNG_B64}` } },
          { type: "text", text: "describe" },
        ]);
      } else if (protocol === "openai_responses") {
        expect(content).toEqual([
          { type: "input_image", image_url: `data:image/png;base64,${PNG_B64}`, detail: "auto" },
          { type: "input_text", text: "describe" },
        ]);
      } else {
        expect(content).toEqual([
          { type: "image", source: { type: "base64", media_type: "image/png", data: PNG_B64 } },
          { type: "text", text: "describe", cache_control: { type: "ephemeral" } },
        ]);
      }
    });
  }

  test("a PDF is an Anthropic document block", async () => {
    s = await scenario({ protocol: "anthropic" });
    writeFileSync(join(s.inst.workspace, "report.pdf"), PDF);
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "summarize", "-f", "report.pdf"]);
    expect(r.code).toBe(0);
    expect(lastUser(bodyOf(), "anthropic")).toEqual([
      { type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF_B64 } },
      { type: "text", text: "summarize", cache_control: { type: "ephemeral" } },
    ]);
  });

  test("a PDF is a Responses input_file with its file name", async () => {
    s = await scenario({ protocol: "openai_responses" });
    s.inst.file("docs/report.pdf", "");
    writeFileSync(join(s.inst.workspace, "docs/report.pdf"), PDF);
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "summarize", "-f", "docs/report.pdf"]);
    expect(r.code).toBe(0);
    expect(lastUser(bodyOf(), "openai_responses")).toEqual([
      { type: "input_file", filename: "report.pdf", file_data: `data:application/pdf;base64,${PDF_B64}` },
      { type: "input_text", text: "summarize" },
    ]);
  });

  test("a PDF to a Chat Completions model is refused naming the protocol, before anything is sent or written", async () => {
    s = await scenario();
    writeFileSync(join(s.inst.workspace, "report.pdf"), PDF);
    const r = await s.inst.run(["run", "-a", "coder", "-p", "summarize", "-f", "report.pdf"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "rienda: -f report.pdf: p/m cannot take a PDF: its protocol openai_chat_completions takes text and images only (PDFs go to anthropic and openai_responses models)",
    );
    expect(s.server.requests).toHaveLength(0);
    expect(sessionFiles()).toHaveLength(0);
  });

  test("-f - attaches stdin as it is: an image through a pipe", async () => {
    s = await scenario({ protocol: "anthropic" });
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "describe", "-f", "-"], { stdinPipe: PNG });
    expect(r.code).toBe(0);
    expect(lastUser(bodyOf(), "anthropic")).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG_B64 } },
      { type: "text", text: "describe", cache_control: { type: "ephemeral" } },
    ]);
  });

  test("a missing file, a directory and a file too large are refused naming each, before any request", async () => {
    s = await scenario();
    s.inst.file("dir/x.txt", "x");
    writeFileSync(join(s.inst.workspace, "big.txt"), Buffer.alloc(40 * 1024 * 1024, "a"));
    for (const [path, message] of [
      ["missing.txt", "rienda: -f missing.txt: no such file"],
      ["dir", "rienda: -f dir: is a directory (attach its files one by one)"],
      ["big.txt", "rienda: -f big.txt: is too large to attach (40.0 MB of text; the limit is 10.0 MB)"],
    ] as const) {
      const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "-f", path]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(message);
    }
    expect(s.server.requests).toHaveLength(0);
    expect(sessionFiles()).toHaveLength(0);
  });

  test("a binary file that is no image or PDF is refused naming it", async () => {
    s = await scenario();
    writeFileSync(join(s.inst.workspace, "blob.bin"), Buffer.from([0xfe, 0xed, 0xfa, 0xce, 0x00]));
    const r = await s.inst.run(["run", "-a", "coder", "-p", "x", "-f", "blob.bin"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "rienda: -f blob.bin: cannot be attached: it holds binary data (a NUL byte at offset 4); Rienda attaches UTF-8 text, PNG, JPEG, GIF and WebP images, and PDFs",
    );
  });

  test("stdin can be read once: -p - with -f - is refused", async () => {
    s = await scenario();
    const r = await s.inst.run(["run", "-a", "coder", "-p", "-", "-f", "-"], { stdinPipe: "x" });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "rienda: run: -p - and -f - both read stdin (it can be read once): give the prompt with -p TEXT",
    );
  });

  test("-s continues with the attachments in the history", async () => {
    s = await scenario({ protocol: "anthropic" });
    writeFileSync(join(s.inst.workspace, "dot.png"), PNG);
    s.server.script({ text: "a dot" }, { text: "red" });
    const first = await s.inst.run(["run", "-a", "coder", "-p", "describe", "-f", "dot.png"]);
    expect(first.code).toBe(0);
    const second = await s.inst.run(["run", "-s", sessionIdOf(first.stderr), "-p", "what colour?"]);
    expect(second.code).toBe(0);
    const messages = bodyOf(1).messages as { role: string; content: unknown }[];
    // The prompt before the newest is a cache breakpoint too (anthropic-request.ts).
    expect(messages[0]!.content).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG_B64 } },
      { type: "text", text: "describe", cache_control: { type: "ephemeral" } },
    ]);
  });

  test("beforeModelRequest hooks see attachments in the documented shape", async () => {
    s = await scenario({ agentFrontmatter: "hooks: [peek]" });
    s.inst.hook(
      "peek",
      `module.exports = { beforeModelRequest(ctx, request) { ctx.file.write("seen.json", JSON.stringify(request.messages)); } };`,
    );
    writeFileSync(join(s.inst.workspace, "dot.png"), PNG);
    s.inst.file("a.txt", "alpha");
    s.server.script({ text: "ok" });
    const r = await s.inst.run(["run", "-a", "coder", "-p", "look", "-f", "dot.png", "-f", "a.txt"]);
    expect(r.code).toBe(0);
    const seen = JSON.parse(readFileSync(join(s.inst.workspace, "seen.json"), "utf8"));
    expect(seen).toEqual([
      {
        role: "user",
        text: "look",
        attachments: [
          { name: "dot.png", mediaType: "image/png", bytes: PNG.length },
          { name: "a.txt", mediaType: "text/plain", bytes: 5, text: "alpha" },
        ],
      },
    ]);
  });
});
