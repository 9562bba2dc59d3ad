/** Shared set-up of runtime tests: a temp workdir, modules written on the fly, a recording front end. */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { FrontEnd, Prompt, ToolCallContext } from "../../src/tools/index.ts";

export interface Recorded {
  logs: string[];
  output: Array<{ stream: string; text: string }>;
  notices: Prompt[];
  questions: Prompt[];
}

export class Sandbox {
  readonly root = mkdtempSync(join(tmpdir(), "rienda-rt-"));
  readonly workdir = join(this.root, "work");
  readonly modules = join(this.root, "modules");
  /** The `~/.rienda` of every context this sandbox makes (ctx.cache, ctx.store). */
  readonly riendaDir = join(this.root, "home", ".rienda");
  readonly recorded: Recorded = { logs: [], output: [], notices: [], questions: [] };
  answer = true;
  onOutput?: (text: string) => void;

  constructor() {
    mkdirSync(this.workdir, { recursive: true });
  }

  /** Writes a module and returns its absolute path. */
  module(name: string, source: string): string {
    const path = join(this.modules, name, "index.js");
    this.write(path, source);
    return path;
  }

  /** A module whose `execute(ctx, args)` has this body. */
  tool(name: string, body: string): string {
    return this.module(name, `module.exports = { execute(ctx, args) {\n${body}\n} };`);
  }

  write(path: string, content: string | Uint8Array): string {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    return path;
  }

  file(relative: string, content: string | Uint8Array): string {
    return this.write(join(this.workdir, relative), content);
  }

  frontEnd(): FrontEnd {
    return {
      log: (text) => this.recorded.logs.push(text),
      output: (stream, text) => {
        this.recorded.output.push({ stream, text });
        this.onOutput?.(text);
      },
      notify: (prompt) => this.recorded.notices.push(prompt),
      confirm: async (prompt) => {
        this.recorded.questions.push(prompt);
        return this.answer;
      },
    };
  }

  context(signal: AbortSignal = new AbortController().signal): ToolCallContext {
    return {
      data: {
        workdir: this.workdir,
        riendaDir: this.riendaDir,
        session: { id: "sess-1", agentId: "coder", modelId: "local/llama", workdir: this.workdir },
        agent: {
          name: "coder",
          description: "d",
          model: "local/llama",
          tools: ["t"],
          hooks: [],
          skills: [],
          agents: [],
          config: { t: { level: 2 } },
          systemPrompt: "be brief",
        },
        config: { config: { t: { min: 3 } } },
      },
      frontEnd: this.frontEnd(),
      signal,
    };
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
