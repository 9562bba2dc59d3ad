/**
 * Starts nothing yet: finds the sandbox program of this platform and checks
 * once, before the run's first request, that it can make a sandbox here
 * (bubblewrap needs user namespaces, which some kernels and containers
 * refuse). A run that asked for the sandbox and cannot have it fails,
 * naming why and how to fix it; it never runs the commands unsandboxed.
 */
import { execFile } from "node:child_process";
import { accessSync, constants, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { RiendaError } from "../errors.ts";
import { bwrapArgs, diskFacts } from "./bwrap-args.ts";
import { denialNote } from "./denial-note.ts";
import { seatbeltProfile } from "./seatbelt-profile.ts";
import type { CommandSandbox, SandboxPolicy } from "./types.ts";

/** Where the process looks for programs, and which platform it is (given in tests). */
export interface SandboxHost {
  platform: NodeJS.Platform;
  /** The PATH programs are looked up in. */
  path: string | undefined;
}

/** The sandbox of `policy`, checked to start here; throws a RiendaError saying why not and what to do. `origin` names the setting ("--sandbox", a file). */
export async function openSandbox(
  policy: SandboxPolicy,
  origin: string,
  host: SandboxHost = { platform: process.platform, path: process.env.PATH },
): Promise<CommandSandbox> {
  const asked = `the sandbox ("${policy.mode}", set by ${origin})`;
  const off = `or run without it (sandbox: off, or --sandbox off)`;
  if (host.platform === "linux") {
    const bwrap = findProgram("bwrap", host.path);
    if (!bwrap) {
      throw new RiendaError(
        "config",
        `${asked} needs bubblewrap, and no bwrap program is on the PATH: install it (Debian, Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap), ${off}`,
      );
    }
    const failure = await probe(bwrap, host.path, [
      "--ro-bind",
      "/",
      "/",
      "--proc",
      "/proc",
      "--dev",
      "/dev",
      "--unshare-pid",
      "--unshare-net",
      "--",
      "true",
    ]);
    if (failure !== undefined) {
      throw new RiendaError(
        "config",
        `${asked} cannot start: ${bwrap} failed: ${failure}. bubblewrap needs unprivileged user namespaces: the kernel may disable them (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 and later, AppArmor restricts them: kernel.apparmor_restrict_unprivileged_userns=0 or an AppArmor profile for bwrap), or a container may forbid them (Docker: --security-opt seccomp=unconfined --security-opt apparmor=unconfined); ${off}`,
      );
    }
    return linuxSandbox(policy, bwrap);
  }
  if (host.platform === "darwin") {
    const program = "/usr/bin/sandbox-exec";
    const failure = await probe(program, host.path, ["-p", "(version 1)(allow default)", "/usr/bin/true"]);
    if (failure !== undefined)
      throw new RiendaError("config", `${asked} cannot start: ${program} failed: ${failure}; ${off}`);
    return macSandbox(policy, program);
  }
  throw new RiendaError(
    "config",
    `${asked} is not available on ${host.platform}: Rienda sandboxes commands on Linux (bubblewrap) and macOS (sandbox-exec); ${off}`,
  );
}

function linuxSandbox(policy: SandboxPolicy, bwrap: string): CommandSandbox {
  return {
    policy,
    wrap: (command, cwd) => ({
      argv: [bwrap, ...bwrapArgs(policy, cwd), "--", "sh", "-c", command],
      env: { TMPDIR: "/tmp" },
    }),
    denialNote: (output) => denialNote(policy, output),
  };
}

function macSandbox(policy: SandboxPolicy, program: string): CommandSandbox {
  const real = (path: string) => diskFacts.real(path) ?? path;
  return {
    policy,
    wrap(command) {
      // A private temporary directory per command, removed when it ends.
      const tmp = mkdtempSync(join(real(tmpdir()), "rienda-sandbox-"));
      return {
        argv: [program, "-p", seatbeltProfile(policy, tmp, real), "sh", "-c", command],
        env: { TMPDIR: tmp },
        cleanup: () => rmSync(tmp, { recursive: true, force: true }),
      };
    },
    denialNote: (output) => denialNote(policy, output),
  };
}

/** The first executable `name` on `path`. */
export function findProgram(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/** Runs the program once; undefined when it succeeded, else what it said (its first line of stderr). */
function probe(program: string, path: string | undefined, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      program,
      args,
      { timeout: 10_000, env: path === undefined ? {} : { PATH: path } },
      (error, _stdout, stderr) => {
        if (!error) return resolve(undefined);
        const said = String(stderr).trim().split("\n")[0];
        resolve(said !== undefined && said !== "" ? said : error.message);
      },
    );
  });
}
