import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { embeddedText, promptParts, uriPath } from "../../../src/cli/acp/prompt-content.ts";

describe("a prompt's content", () => {
  test("text joined, embedded text fenced with its path, links to files attached with a fallback, other links named", () => {
    const parts = promptParts([
      { type: "text", text: "look" },
      { type: "resource", resource: { uri: "file:///w/a.md", text: "has ``` inside" } },
      { type: "resource_link", name: "b.ts", uri: "file:///w/b.ts" },
      { type: "resource_link", name: "docs", uri: "https://example.org/docs" },
    ]);
    expect(parts.text).toBe("look\n\n/w/a.md:\n````\nhas ``` inside\n````\n\n[docs](https://example.org/docs)");
    expect(parts.files).toEqual([{ path: "/w/b.ts", fallback: "[b.ts](file:///w/b.ts)" }]);
    parts.cleanup();
  });

  test("an image's bytes go to a private file, named after its URI, removed by cleanup", () => {
    const parts = promptParts([
      { type: "image", mimeType: "image/png", data: Buffer.from("PNGBYTES").toString("base64"), uri: "file:///w/shot one.png" },
      { type: "image", mimeType: "image/jpeg", data: Buffer.from("JPG").toString("base64") },
    ]);
    const [first, second] = parts.files.map((f) => f.path);
    expect(first).toEndWith("1-shot_one.png");
    expect(second).toEndWith("2-attachment-2.jpg");
    expect(readFileSync(first!, "utf8")).toBe("PNGBYTES");
    expect(statSync(dirname(first!)).mode & 0o777).toBe(0o700);
    expect(statSync(first!).mode & 0o777).toBe(0o600);
    parts.cleanup();
    expect(existsSync(dirname(first!))).toBe(false);
  });

  test("audio, which Rienda does not declare, is named as left out", () => {
    expect(promptParts([{ type: "audio", mimeType: "audio/wav", data: "" }]).text).toBe("[audio content left out: Rienda does not take it]");
  });

  test("uriPath reads file: URIs only; embeddedText ends the fence on its own line", () => {
    expect(uriPath("file:///a%20b/c.txt")).toBe("/a b/c.txt");
    expect(uriPath("untitled:Untitled-1")).toBeUndefined();
    expect(embeddedText("untitled:Untitled-1", "x\n")).toBe("untitled:Untitled-1:\n```\nx\n```");
  });
});
