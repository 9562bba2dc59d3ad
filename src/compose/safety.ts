/**
 * The sandbox and the permission rules of one agent (docs/security.md):
 * the sandbox setting from `--sandbox`, the agent's frontmatter and
 * config.yaml (the first that writes a key wins), checked to start here
 * before anything is sent; the rules of config.yaml and the agent, asked
 * through the same dialogs as `ctx.confirm`.
 */
import type { Agent } from "../agents/index.ts";
import type { LoadedConfig } from "../config/index.ts";
import type { HookPort } from "../engine/index.ts";
import { RiendaError } from "../errors.ts";
import { checkCall } from "../permissions/index.ts";
import {
  openSandbox,
  parseSandboxMode,
  resolveSandboxPolicy,
  type CommandSandbox,
  type SandboxMode,
  type SandboxSettings,
} from "../sandbox/index.ts";
import type { Dialogs } from "./types.ts";

/** `--sandbox MODE` read; throws a RiendaError when it is not a mode. */
export function sandboxFlag(written: string | undefined): SandboxMode | undefined {
  const flag = written === undefined ? undefined : parseSandboxMode(written);
  if (flag && "problem" in flag) throw new RiendaError("usage", `--sandbox: ${flag.problem}`);
  return flag?.mode;
}

/** The sandbox the `shell` tool's commands run in; undefined when it is off. Throws a RiendaError when it cannot start here. */
export async function agentSandbox(
  config: LoadedConfig,
  agent: Agent,
  request: { sandbox?: string; workdir: string; home: string },
): Promise<CommandSandbox | undefined> {
  const flag = sandboxFlag(request.sandbox);
  const places: { settings: SandboxSettings; origin: string }[] = [
    ...(flag ? [{ settings: { mode: flag }, origin: "--sandbox" }] : []),
    { settings: agent.sandbox, origin: agent.file },
    { settings: config.sandbox, origin: config.path },
  ];
  const policy = resolveSandboxPolicy(
    places.map((p) => p.settings),
    { workspace: request.workdir, home: request.home },
  );
  if (!policy) return undefined;
  const origin = places.find((p) => p.settings.mode !== undefined)!.origin;
  return openSandbox(policy, origin);
}

/** `hooks` with the permission rules of config.yaml and the agent checked before them; `hooks` itself when there are none. */
export function withPermissionRules(hooks: HookPort, config: LoadedConfig, agent: Agent, dialogs: Dialogs): HookPort {
  const rules = [...config.permissions, ...agent.permissions];
  if (rules.length === 0) return hooks;
  return {
    names: hooks.names,
    handles: (name, point) => hooks.handles(name, point),
    call: (name, point, args, observer, signal) => hooks.call(name, point, args, observer, signal),
    permissions: {
      check: (call, observer) =>
        checkCall(rules, call, (prompt) =>
          dialogs.confirm(prompt, undefined, observer.callId !== undefined ? { callId: observer.callId } : undefined),
        ),
    },
  };
}
