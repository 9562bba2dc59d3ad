/**
 * The files and inline images of an rpc `prompt`, `follow_up` or `steer`
 * read into attachments: paths relative to the workspace, images as base64
 * whose bytes must be an image (docs/rpc.md "Images").
 */
import { attachmentFromBytes } from "../../attachments/index.ts";
import type { Conversation } from "../../conversation/index.ts";
import { RiendaError } from "../../errors.ts";
import type { AttachmentBlock } from "../../providers/index.ts";
import type { InlineImage } from "./rpc-protocol.ts";

/** Standard base64 with its padding; checked before decoding so garbage gets a clear message. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Reads every file and image of a command; a RiendaError names the first that cannot be attached. */
export function readCommandAttachments(
  conversation: Conversation,
  command: { files: string[]; images: InlineImage[] },
): AttachmentBlock[] {
  return [...command.files.map((path) => conversation.readAttachment(path)), ...command.images.map(imageAttachment)];
}

/** One inline image as an attachment. */
export function imageAttachment(image: InlineImage): AttachmentBlock {
  const shown = `image "${image.name}"`;
  const data = image.data.replace(/\s+/g, "");
  if (data === "" || data.length % 4 !== 0 || !BASE64.test(data))
    throw new RiendaError("usage", `${shown}: "data" is not base64 text`);
  const block = attachmentFromBytes(new Uint8Array(Buffer.from(data, "base64")), image.name, shown);
  if (!block.mediaType.startsWith("image/"))
    throw new RiendaError(
      "usage",
      `${shown}: the bytes are not an image (PNG, JPEG, GIF or WebP); send other files by path in "files"`,
    );
  return block;
}
