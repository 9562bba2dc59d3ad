/**
 * Findings about providers beyond config.yaml's text: provider modules
 * that fail (a run on them would stop; every other provider works), a
 * module hidden by a config.yaml provider of its name, a key a run needs
 * that no one stored, and a credentials.json that cannot be read.
 */
import type { CredentialsFacts, ProviderFacts, ProvidersFolderFacts } from "./read-providers.ts";
import type { ModelUser } from "./model-users.ts";
import type { Finding } from "./types.ts";

/**
 * A module that fails to evaluate: a problem for a module of yours (you
 * installed it to use it, as a tool); a warning for a built-in, which
 * nothing of yours breaks.
 */
export function checkProviderModules(providers: readonly ProviderFacts[]): Finding[] {
  return providers
    .filter((p) => p.row.key === undefined && p.row.problem !== undefined && p.unsettled === undefined)
    .map(({ row }) => ({
      severity: row.origin === "built-in" ? ("warning" as const) : ("problem" as const),
      check: "provider" as const,
      file: row.source,
      name: row.name,
      message: row.problem!,
      hint:
        row.origin === "built-in"
          ? `runs on ${row.name} fail until it works; a module of yours in ~/.rienda/providers/${row.name}/index.js replaces the built-in (docs/providers.md)`
          : `fix ${row.source} (module.exports is a function returning protocol, base_url and models: docs/providers.md), or move its folder out of ~/.rienda/providers`,
    }));
}

/** A warning for each provider module hidden by a config.yaml provider of the same name: runs use config.yaml's. */
export function checkHiddenModules(providers: readonly ProviderFacts[], configPath: string): Finding[] {
  return providers.flatMap(({ row, hides }) =>
    hides.map((hidden) => ({
      severity: "warning" as const,
      check: "provider" as const,
      file: hidden.path,
      name: row.name,
      message: `hidden by providers.${row.name} in ${configPath}: runs on ${row.name}/... use config.yaml's provider`,
      hint:
        hidden.origin === "built-in"
          ? `rename providers.${row.name} in config.yaml to use the built-in module too, or leave it: config.yaml's provider replaces it`
          : `remove providers.${row.name} from config.yaml to use the module, or rename the module's folder`,
    })),
  );
}

/** A problem for each provider a run needs a key of (an agent's model or compaction.model) that has none. */
export function checkProviderKeys(
  providers: readonly ProviderFacts[],
  users: readonly ModelUser[],
  credentialsPath: string,
): Finding[] {
  return providers.flatMap(({ row }) => {
    if (row.key !== "missing") return [];
    const needing = users.filter((u) => u.provider === row.name);
    if (needing.length === 0) return [];
    const who = needing.map((u) => `${u.label} (${u.ref})`).join(", ");
    return [
      {
        severity: "problem" as const,
        check: "provider" as const,
        file: credentialsPath,
        name: row.name,
        message: `provider ${row.name} is not authenticated, and ${who} ${needing.length === 1 ? "needs" : "need"} it`,
        hint: `store its key: rienda auth set ${row.name} < keyfile (or rienda auth, on a terminal)`,
      },
    ];
  });
}

/** A problem when credentials.json exists but cannot be read: every key in it is lost to runs. */
export function checkCredentialsFile(credentials: CredentialsFacts): Finding[] {
  if (credentials.problem === undefined) return [];
  return [
    {
      severity: "problem",
      check: "credentials",
      file: credentials.path,
      message: credentials.problem,
      hint: /permission denied/.test(credentials.problem)
        ? `make it readable by you: chmod 600 ${credentials.path}`
        : `repair it by hand (it holds {"provider": {"api_key": "..."}}), or move it away and store the keys again with rienda auth`,
    },
  ];
}

/** A problem when the providers folder exists but cannot be listed: none of your modules is found (the built-ins still work). */
export function checkProvidersFolder(folder: ProvidersFolderFacts): Finding[] {
  return folder.problems.map((problem) => ({
    severity: "problem" as const,
    check: "provider" as const,
    file: folder.path,
    message: problem,
    hint: /not a folder/.test(problem)
      ? `move it away: ${folder.path} holds provider modules, one folder each (<name>/index.js)`
      : `make it readable by you (chmod u+rx ${folder.path}), or point RIENDA_PROVIDERS elsewhere`,
  }));
}
