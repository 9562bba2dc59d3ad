/**
 * The slash commands' reports in the transcript: the commands of the line
 * chat (ui/chat/chat-commands.ts) write through a ChatRenderer; here its
 * text goes into one transcript block per command instead of the terminal.
 */
import { ChatRenderer, type ChatStyle } from "../chat/index.ts";
import { LinesBlock } from "./lines-block.ts";
import type { Transcript } from "./transcript.ts";

export interface CommandOutput {
  renderer: ChatRenderer;
  /** The command is done: its next report starts a new block. */
  end(): void;
}

export function createCommandOutput(
  transcript: Transcript,
  style: ChatStyle,
  width: () => number,
  render: () => void,
): CommandOutput {
  let sink: LinesBlock | undefined;
  const renderer = new ChatRenderer({
    write(text) {
      sink ??= transcript.add(new LinesBlock(""));
      sink.setText(sink.text + text);
      render();
    },
    style,
    width,
  });
  return {
    renderer,
    end() {
      renderer.closeBlock();
      sink = undefined;
    },
  };
}
