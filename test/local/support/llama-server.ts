/**
 * A real llama.cpp server (`llama-server`) running the puppet model of
 * test/local/fixtures, for the local-server tier (docs/development.md).
 * The server comes from the project's own installer
 * (scripts/local-model/setup-llama-server.sh, run by `make local-server`
 * into .local-model/); this module runs it itself when the folder is
 * missing, so `bun test test/local` works alone. Speaks only the external
 * contract: processes, ports and HTTP.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../../..");
export const FIXTURES = resolve(import.meta.dir, "../fixtures");
export const PUPPET_MODEL = resolve(FIXTURES, "puppet.gguf");
/** The puppet's own template with its `<tool_call>` tags renamed: llama.cpp then finds no call format to parse, and a call arrives as text. */
export const TEXT_CALLS_TEMPLATE = resolve(FIXTURES, "text-calls-template.jinja");
const INSTALL_DIR = process.env.RIENDA_LLAMA_DIR ?? resolve(ROOT, ".local-model");

/** The wrapper that starts the unpacked server, installed on first use. */
export function llamaServerBinary(): string {
  const wrapper = resolve(INSTALL_DIR, "llama-server");
  if (existsSync(wrapper)) return wrapper;
  const setup = spawnSync(resolve(ROOT, "scripts/local-model/setup-llama-server.sh"), [INSTALL_DIR], {
    encoding: "utf8",
  });
  if (setup.status !== 0 || !existsSync(wrapper)) {
    throw new Error(
      `could not install llama-server into ${INSTALL_DIR} (make local-server): ${setup.stderr.trim() || `exit ${setup.status}`}`,
    );
  }
  return wrapper;
}

/** How a test wants the server started. */
export interface LlamaOptions {
  /** The id `/v1/models` serves (`-a`); default `puppet`. */
  alias?: string;
  /** `-c`: the context size; default 8192. */
  contextSize?: number;
  /** A chat template file replacing the model's own (`--chat-template-file`). */
  chatTemplate?: string;
  /** `--no-jinja`: the legacy template path, which refuses `tools`. */
  noJinja?: boolean;
  /** A port to listen on (default: a free one). */
  port?: number;
  /** Starts it as `argv` prefix says (e.g. inside a network namespace); the caller then waits itself. */
  extraArgs?: string[];
}

/** A started server. */
export interface LlamaServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  port: number;
  process: ChildProcess;
  log(): string;
  /** SIGKILL, and waits until the process ended. */
  kill(): Promise<void>;
}

/** A TCP port nothing listens on right now. */
export async function freePort(): Promise<number> {
  return await new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

/** The server's argv for `options` (also for tests that start it themselves). */
export function llamaArgs(port: number, options: LlamaOptions = {}): string[] {
  return [
    "-m",
    PUPPET_MODEL,
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
    "-c",
    String(options.contextSize ?? 8192),
    "-t",
    "1",
    "-np",
    "1",
    options.noJinja ? "--no-jinja" : "--jinja",
    ...(options.chatTemplate ? ["--chat-template-file", options.chatTemplate] : []),
    "--no-webui",
    "-a",
    options.alias ?? "puppet",
    ...(options.extraArgs ?? []),
  ];
}

/** Starts llama-server and waits until `/v1/models` answers. */
export async function startLlamaServer(options: LlamaOptions = {}): Promise<LlamaServer> {
  const binary = llamaServerBinary();
  const port = options.port ?? (await freePort());
  const child = spawn(binary, llamaArgs(port, options), { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (log += d));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (log += d));
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`llama-server exited (${child.exitCode}) before answering:\n${log}`);
    try {
      const response = await fetch(`${url}/v1/models`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`llama-server did not answer on ${url} within 30 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    port,
    process: child,
    log: () => log,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}

/** config.yaml for one provider `local` (llama.cpp's OpenAI-compatible API) serving model `puppet`. */
export function localConfig(url: string, modelExtra: string[] = [], providerExtra: string[] = []): string {
  return [
    "providers:",
    "  local:",
    "    protocol: openai_chat_completions",
    `    base_url: ${url}/v1`,
    ...providerExtra.map((line) => `    ${line}`),
    "    models:",
    "      puppet:",
    "        id: puppet",
    ...modelExtra.map((line) => `        ${line}`),
    "",
  ].join("\n");
}

/** An agent using `local/puppet`, with `tools` when given. */
export function puppetAgent(tools: string[] = []): string {
  return [
    "---",
    "description: Talks to the puppet model.",
    "model: local/puppet",
    ...(tools.length > 0 ? [`tools: [${tools.join(", ")}]`] : []),
    "---",
    "You are a test agent.",
    "",
  ].join("\n");
}
