/**
 * A real pseudo-terminal for e2e tests of the interactive chat: the binary
 * runs inside a detached tmux session of a fixed size; tests type with
 * `send-keys`, paste with `paste-buffer -p` (bracketed paste), and read the
 * screen with `capture-pane`. Every wait polls the screen with a timeout;
 * nothing asserts on time. Each terminal uses its own tmux server socket,
 * so tests never see each other's sessions (or the user's).
 *
 * Needs tmux on PATH (CI: `apt-get install -y tmux`). Never imports src/.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, type Instance } from "./instance.ts";

/** Whether tmux can be run here. */
export function hasTmux(): boolean {
  return spawnSync("tmux", ["-V"], { encoding: "utf8" }).status === 0;
}

/** Options of one terminal. */
export interface TerminalOptions {
  /** Arguments of `rienda`. */
  args?: string[];
  cwd?: string;
  env?: Record<string, string | undefined>;
  width?: number;
  height?: number;
  /**
   * The full-screen chat. Without it a bare `rienda` gets `--plain`: the
   * tests written for the line chat keep testing it (docs/chat.md).
   */
  fullScreen?: boolean;
  /** A shell command run in the pane before `rienda` (what the terminal held before it started). */
  before?: string;
  /** A shell command run after `rienda` returns, whose status is the one recorded (`fg` after a Ctrl-Z). */
  after?: string;
}

/** A running `rienda` in a tmux pane. */
export class Terminal {
  readonly #socket: string;
  readonly #exitFile: string;
  readonly name = "chat";

  private constructor(socket: string, exitFile: string) {
    this.#socket = socket;
    this.#exitFile = exitFile;
  }

  /** Starts `rienda ARGS` in a new detached tmux session of the instance. */
  static start(inst: Instance, options: TerminalOptions = {}): Terminal {
    const socket = join(inst.root, "tmux.sock");
    const exitFile = join(inst.root, `chat-exit-${Date.now()}`);
    const env = inst.env({ TERM: "xterm-256color", ...options.env });
    const exports = Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)}`);
    const args = options.args ?? [];
    const chat = args.length === 0 || args[0]!.startsWith("-");
    const command = [BINARY, ...(chat && !options.fullScreen ? ["--plain", ...args] : args)].map(shellQuote).join(" ");
    // The pane outlives the program (remain-on-exit) so its last screen and exit code stay readable.
    const script = `${options.before ? `${options.before}; ` : ""}env -i ${exports.join(" ")} ${command}; ${options.after ? `${options.after}; ` : ""}echo $? > ${shellQuote(exitFile)}`;
    const terminal = new Terminal(socket, exitFile);
    // Pickers redraw from the top row; tmux would otherwise push each cleared frame into the history.
    const conf = join(inst.root, "tmux.conf");
    // set-clipboard on: an OSC 52 the program writes becomes a tmux buffer (`clipboard()`).
    writeFileSync(
      conf,
      "set -g remain-on-exit on\nset -wg scroll-on-clear off\nset -g history-limit 5000\nset -g set-clipboard on\n",
    );
    terminal.#tmux([
      "-f",
      conf,
      "new-session",
      "-d",
      "-s",
      terminal.name,
      "-x",
      String(options.width ?? 100),
      "-y",
      String(options.height ?? 30),
      "-c",
      options.cwd ?? inst.workspace,
      script,
    ]);
    return terminal;
  }

  /** The visible screen, lines without trailing blanks. */
  screen(): string {
    const result = spawnSync("tmux", ["-S", this.#socket, "capture-pane", "-p", "-t", this.name], { encoding: "utf8" });
    return result.status === 0 ? result.stdout.replace(/\s+$/, "") : "";
  }

  /** The whole pane including what scrolled away. */
  history(): string {
    const result = spawnSync("tmux", ["-S", this.#socket, "capture-pane", "-p", "-S", "-", "-t", this.name], {
      encoding: "utf8",
    });
    return result.status === 0 ? result.stdout.replace(/\s+$/, "") : "";
  }

  /** What the program last put on the clipboard with OSC 52 (tmux's newest buffer); "" when nothing. */
  clipboard(): string {
    const result = spawnSync("tmux", ["-S", this.#socket, "show-buffer"], { encoding: "utf8" });
    return result.status === 0 ? result.stdout : "";
  }

  /** The pane's title, as the program's OSC 0/2 sequences would set it (tmux starts it as the host name). */
  title(): string {
    return spawnSync("tmux", ["-S", this.#socket, "display-message", "-p", "-t", this.name, "#{pane_title}"], {
      encoding: "utf8",
    }).stdout.trim();
  }

  /** Starts keeping every byte the program writes (escape sequences included); read it with `recorded()`. */
  record(): void {
    this.#tmux(["pipe-pane", "-t", this.name, "-o", `cat >> ${shellQuote(this.#exitFile + ".raw")}`]);
  }

  /** The bytes kept since `record()`. */
  recorded(): string {
    return existsSync(this.#exitFile + ".raw") ? readFileSync(this.#exitFile + ".raw", "utf8") : "";
  }

  /** Types text literally (no key names), without Enter. */
  type(text: string): void {
    this.#tmux(["send-keys", "-t", this.name, "-l", text]);
  }

  /** Sends key names (`Enter`, `C-c`, `C-d`, `M-Enter`, `Escape`, `Down`, ...). */
  keys(...names: string[]): void {
    this.#tmux(["send-keys", "-t", this.name, ...names]);
  }

  /** Resizes the terminal, as a user dragging its window would. */
  resize(width: number, height: number): void {
    this.#tmux(["resize-window", "-t", this.name, "-x", String(width), "-y", String(height)]);
  }

  /** Types a line and presses Enter. */
  line(text: string): void {
    this.type(text);
    this.keys("Enter");
  }

  /** Pastes text the way a terminal does; bracketed when the program asked for it. */
  paste(text: string): void {
    this.#tmux(["set-buffer", "-b", "paste", "--", text]);
    this.#tmux(["paste-buffer", "-p", "-d", "-b", "paste", "-t", this.name]);
  }

  /** Waits until the whole pane history satisfies `predicate` (or contains the text); returns it. */
  async waitFor(expected: string | RegExp | ((text: string) => boolean), timeoutMs = 15_000): Promise<string> {
    const test =
      typeof expected === "function"
        ? expected
        : typeof expected === "string"
          ? (t: string) => t.includes(expected)
          : (t: string) => expected.test(t);
    const start = Date.now();
    for (;;) {
      const text = this.history();
      if (test(text)) return text;
      if (Date.now() - start > timeoutMs) {
        throw new Error(
          `timed out waiting for ${typeof expected === "function" ? "the screen" : JSON.stringify(String(expected))}; the screen was:\n${text}`,
        );
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Waits until the chat is idle at an empty prompt (the last screen line is ">") after `turns` turn-end lines. */
  async waitForPrompt(turns = 0, timeoutMs = 15_000): Promise<string> {
    // The history read must show the prompt too, not only the screen read after it: on a busy machine the
    // program can draw between the two reads, and the text returned would be from before it drew.
    const atPrompt = (text: string) => /(^|\n)>$/.test(text);
    return this.waitFor(
      (t) => t.split("\n─ ").length - 1 >= turns && atPrompt(t) && atPrompt(this.screen()),
      timeoutMs,
    );
  }

  /** Waits until `text` appears `count` times in the pane history. */
  waitForCount(text: string, count: number, timeoutMs = 15_000): Promise<string> {
    return this.waitFor((t) => t.split(text).length - 1 >= count, timeoutMs);
  }

  /** Sends `signal` to the program (the child of the pane's shell), as `kill` from another terminal would. */
  signal(signal: NodeJS.Signals): void {
    const shell = spawnSync("tmux", ["-S", this.#socket, "display-message", "-p", "-t", this.name, "#{pane_pid}"], {
      encoding: "utf8",
    }).stdout.trim();
    const children = readdirSync("/proc").filter((entry) => {
      if (!/^\d+$/.test(entry)) return false;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1] === shell;
      } catch {
        return false; // ended while we looked
      }
    });
    if (children.length !== 1)
      throw new Error(`expected one program under the pane's shell ${shell}, found ${children.length}`);
    process.kill(Number(children[0]), signal);
  }

  /** Waits for the program to end; returns its exit code. */
  async exitCode(timeoutMs = 15_000): Promise<number> {
    const start = Date.now();
    while (!existsSync(this.#exitFile) || readFileSync(this.#exitFile, "utf8").trim() === "") {
      if (Date.now() - start > timeoutMs)
        throw new Error(`the program did not exit; the screen was:\n${this.history()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return Number(readFileSync(this.#exitFile, "utf8").trim());
  }

  /** Ends the tmux server (and the program, if still running). */
  dispose(): void {
    spawnSync("tmux", ["-S", this.#socket, "kill-server"], { encoding: "utf8" });
    rmSync(this.#socket, { force: true });
  }

  #tmux(args: string[]): void {
    const result = spawnSync("tmux", ["-S", this.#socket, ...args], { encoding: "utf8" });
    if (result.status !== 0) throw new Error(`tmux ${args.join(" ")} failed: ${result.stderr}`);
  }
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
