/** Shared set-up of the provider-modules tests: a HOME with a providers folder, modules written on the fly, evaluation with a recorded log. */
import { afterAll, afterEach, beforeAll, beforeEach } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  evaluateProviderModule,
  listProviderModules,
  type Evaluation,
  type ModuleEntry,
} from "../../src/provider-modules/index.ts";
import type { ProviderSettings } from "../../src/config/index.ts";
import { createRuntime, type Runtime } from "../../src/runtime/index.ts";

export class ProvidersHome {
  readonly home = mkdtempSync(join(tmpdir(), "rienda-pm-"));
  readonly riendaDir = join(this.home, ".rienda");
  readonly folder = join(this.riendaDir, "providers");
  readonly logs: string[] = [];

  constructor(private readonly runtime: Runtime) {}

  /** Writes `<folder>/<name>/<file>` and returns its path. */
  write(name: string, source: string, file = "index.js"): string {
    const path = join(this.folder, name, file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, source);
    return path;
  }

  /** A module whose exported function has this body. */
  module(name: string, body: string): string {
    return this.write(name, `module.exports = function (ctx) {\n${body}\n};\n`);
  }

  /** A module returning this declaration. */
  declaring(name: string, declaration: unknown): string {
    return this.module(name, `return ${JSON.stringify(declaration)};`);
  }

  list(env: Record<string, string | undefined> = {}) {
    return listProviderModules({ env, home: this.home });
  }

  entry(name: string): ModuleEntry {
    const found = this.list().modules.find((entry) => entry.name === name);
    if (!found) throw new Error(`no module ${name}`);
    return found;
  }

  evaluate(
    name: string,
    options: { configDocument?: Record<string, unknown>; signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<Evaluation> {
    return evaluateProviderModule(this.entry(name), {
      runtime: this.runtime,
      configDocument: options.configDocument ?? {},
      riendaDir: this.riendaDir,
      signal: options.signal ?? new AbortController().signal,
      log: (text) => this.logs.push(text),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
  }

  /** The problem line of an evaluation that must fail. */
  async problem(name: string): Promise<string> {
    const evaluation = await this.evaluate(name);
    if ("provider" in evaluation) throw new Error(`${name} was accepted`);
    return evaluation.problem;
  }

  dispose(): void {
    rmSync(this.home, { recursive: true, force: true });
  }
}

/** A minimal valid declaration; tests bend copies of it. */
export function validDeclaration(): Record<string, unknown> {
  return {
    protocol: "openai_chat_completions",
    base_url: "https://api.example.test/v1",
    auth: "api_key",
    models: [{ id: "m1", context_window: 128000 }],
  };
}

/** One runtime for the test file and a fresh ProvidersHome for each test, as bun:test hooks. */
export function providersFixture(): { readonly runtime: Runtime; readonly home: ProvidersHome } {
  const state = {} as { runtime: Runtime; home: ProvidersHome };
  beforeAll(() => {
    state.runtime = createRuntime();
  });
  afterAll(() => state.runtime.close());
  beforeEach(() => {
    state.home = new ProvidersHome(state.runtime);
  });
  afterEach(() => state.home.dispose());
  return state;
}

/** The provider of an evaluation that must succeed. */
export function providerOf(evaluation: Evaluation): ProviderSettings {
  if (!("provider" in evaluation)) throw new Error(evaluation.problem);
  return evaluation.provider;
}
