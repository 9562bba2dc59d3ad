/**
 * What a `session/prompt` carries, as a Rienda turn takes it: one prompt
 * text and files attached to it (docs/acp.md, "Prompts").
 *
 * - `text` blocks are the prompt, in order.
 * - `resource` blocks (embedded context: the editor's copy, unsaved edits
 *   included) of text are written into the prompt with their URI, so the
 *   model reads the editor's version and knows which file it is.
 * - `image` blocks and binary `resource` blocks become attachments from
 *   their bytes, named after their URI when they have one.
 * - `resource_link` blocks of a local file are attached from disk (the name
 *   the model sees is the file's path); a link that cannot be attached (not
 *   a `file:` URI, a folder, a binary) is named in the prompt instead, for
 *   the model's tools to follow.
 */
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import type { ContentBlock } from "@agentclientprotocol/sdk";

/** A file to attach: a path on disk (with what to say when it cannot be), or bytes the prompt carried. */
export type PromptFile = { path: string; fallback: string } | { name: string; bytes: Uint8Array };

/** A prompt ready for the conversation. */
export interface PromptParts {
  text: string;
  files: PromptFile[];
}

/** The file extension of the media types an attachment may have. */
const EXTENSIONS: Record<string, string> = {
  "image/png": ".png",
  "image/jpeg": ".jpg",
  "image/gif": ".gif",
  "image/webp": ".webp",
  "application/pdf": ".pdf",
};

/** Splits the blocks of a prompt into its text and its files. */
export function promptParts(blocks: readonly ContentBlock[]): PromptParts {
  const texts: string[] = [];
  const files: PromptFile[] = [];
  /** Bytes the prompt carries, named by their URI's file name, else by their place and type. */
  const carried = (base64: string, mimeType: string | null | undefined, uri: string | null | undefined): PromptFile => {
    const named = uri ? basename(uriPath(uri) ?? uri) : "";
    return {
      name: named || `attachment-${files.length + 1}${EXTENSIONS[mimeType ?? ""] ?? ""}`,
      bytes: new Uint8Array(Buffer.from(base64, "base64")),
    };
  };
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        texts.push(block.text);
        break;
      case "image":
        files.push(carried(block.data, block.mimeType, block.uri));
        break;
      case "resource": {
        const resource = block.resource;
        if ("text" in resource) texts.push(embeddedText(resource.uri, resource.text));
        else files.push(carried(resource.blob, resource.mimeType, resource.uri));
        break;
      }
      case "resource_link": {
        const path = uriPath(block.uri);
        const named = `[${block.name}](${block.uri})`;
        if (path) files.push({ path, fallback: named });
        else texts.push(named);
        break;
      }
      default:
        // Audio: not declared in the capabilities, so a client sends none; one that does is told.
        texts.push(`[${block.type} content left out: Rienda does not take it]`);
    }
  }
  return { text: texts.join("\n\n"), files };
}

/** The text of an embedded resource as the prompt carries it: fenced, with the file it is. */
export function embeddedText(uri: string, text: string): string {
  const fence = longestRun(text) >= 3 ? "`".repeat(longestRun(text) + 1) : "```";
  return `${uriPath(uri) ?? uri}:\n${fence}\n${text}${text.endsWith("\n") ? "" : "\n"}${fence}`;
}

/** The local path of a `file:` URI; undefined for any other URI. */
export function uriPath(uri: string): string | undefined {
  if (!uri.startsWith("file:")) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/** The longest run of backticks in `text`, so a fence around it is longer. */
function longestRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}
