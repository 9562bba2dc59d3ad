import { describe, expect, test } from "bun:test";
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
  });

  test("an image's bytes are carried, named after its URI's file name, else by place and type", () => {
    const parts = promptParts([
      {
        type: "image",
        mimeType: "image/png",
        data: Buffer.from("PNGBYTES").toString("base64"),
        uri: "file:///w/shot%20one.png",
      },
      { type: "image", mimeType: "image/jpeg", data: Buffer.from("JPG").toString("base64") },
      {
        type: "resource",
        resource: { uri: "zed://blob/1", mimeType: "application/pdf", blob: Buffer.from("%PDF").toString("base64") },
      },
    ]);
    expect(parts.files).toEqual([
      { name: "shot one.png", bytes: new Uint8Array(Buffer.from("PNGBYTES")) },
      { name: "attachment-2.jpg", bytes: new Uint8Array(Buffer.from("JPG")) },
      { name: "1", bytes: new Uint8Array(Buffer.from("%PDF")) },
    ]);
  });

  test("audio, which Rienda does not declare, is named as left out", () => {
    expect(promptParts([{ type: "audio", mimeType: "audio/wav", data: "" }]).text).toBe(
      "[audio content left out: Rienda does not take it]",
    );
  });

  test("uriPath reads file: URIs only; embeddedText ends the fence on its own line", () => {
    expect(uriPath("file:///a%20b/c.txt")).toBe("/a b/c.txt");
    expect(uriPath("untitled:Untitled-1")).toBeUndefined();
    expect(embeddedText("untitled:Untitled-1", "x\n")).toBe("untitled:Untitled-1:\n```\nx\n```");
  });
});
