/**
 * The scrolling transcript: every block shown so far, oldest first. The
 * blocks above the screen scroll into the terminal's own history, so the
 * terminal's scrollback and search keep working.
 */
import { Container, type Component } from "@mariozechner/pi-tui";
import { LinesBlock } from "./lines-block.ts";
import { ThinkingBlock } from "./thinking-block.ts";
import { ToolBlock } from "./tool-block.ts";
import type { TuiTheme } from "./theme.ts";

export class Transcript extends Container {
  #expanded = false;

  constructor(private readonly theme: TuiTheme) {
    super();
  }

  /** Lines of the last frame drawn: the bottom panel keeps its place against it. */
  lineCount = 0;

  override render(width: number): string[] {
    const lines = super.render(width);
    this.lineCount = lines.length;
    return lines;
  }

  add<T extends Component>(block: T): T {
    if (block instanceof ToolBlock) block.expanded = this.#expanded;
    this.addChild(block);
    return block;
  }

  /** A styled line or paragraph. */
  line(text: string, prefix = "", indent = ""): LinesBlock {
    return this.add(new LinesBlock(text, prefix, indent));
  }

  /** A notice (`ctx.notify`, a failing hook, a diagnostic): `! ` and the text, wrapped under itself. */
  notice(text: string, into?: ToolBlock): void {
    const block = new LinesBlock(this.theme.style.warn(text), this.theme.style.warn("! "), "  ");
    if (into) into.children.push(block);
    else this.add(block);
  }

  /** Whether tool blocks show everything (full arguments, all output); toggled by Ctrl-O. */
  get expanded(): boolean {
    return this.#expanded;
  }

  toggleExpanded(): void {
    this.#expanded = !this.#expanded;
    const visit = (blocks: Component[]): void => {
      for (const block of blocks) {
        if (block instanceof ToolBlock) {
          block.expanded = this.#expanded;
          visit(block.children);
        } else if (block instanceof ThinkingBlock) block.expanded = this.#expanded;
      }
    };
    visit(this.children);
  }
}
