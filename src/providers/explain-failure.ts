/** The final failure of a model request as the user reads it, with the config.yaml key that fixes it. */
import { isLocalUrl } from "./describe-network-error.ts";
import { startHintFor } from "./local-servers.ts";
import { shownUrl } from "./shown-url.ts";
import type { ProviderFailure, ResolvedModel } from "./types.ts";

/**
 * The final failure of a model request as the user reads it: which
 * provider failed, what it said, and which `config.yaml` key to look at
 * when one can fix it. Interrupts are left as they are.
 */
export function explainFailure(failure: ProviderFailure, model: ResolvedModel): ProviderFailure {
  if (failure.kind === "aborted" || model.protocol === "replay") return failure;
  const label = model.baseUrl
    ? `provider "${model.provider}" (${shownUrl(model.baseUrl)})`
    : `provider "${model.provider}"`;
  const hint = hintFor(failure, model);
  return { ...failure, message: `${label}: ${failure.message}${hint ? `. ${hint}` : ""}` };
}

function hintFor(failure: ProviderFailure, model: ResolvedModel): string | undefined {
  if (model.declaredIn !== undefined) return moduleHintFor(failure, model, model.declaredIn);
  const provider = keyPart(model.provider);
  const modelKey = `providers.${provider}.models.${keyPart(model.alias)}`;
  switch (failure.kind) {
    case "network":
      if (/connection refused/.test(failure.message) && isLocalUrl(model.baseUrl)) {
        return `${startHintFor(model.baseUrl)}, or set providers.${provider}.base_url to where it listens`;
      }
      return `Check providers.${provider}.base_url and your network (HTTPS_PROXY is honoured)`;
    case "authentication":
      return keyHint(model, provider);
    case "context_length":
      return `Set ${modelKey}.context_window so Rienda compacts the conversation before it gets this long`;
    case "invalid_request":
      if (failure.redirectedTo !== undefined)
        return movedHint(failure.redirectedTo, (to) => `set providers.${provider}.base_url to ${to}`);
      if (failure.status === 404)
        return `Check providers.${provider}.base_url and the model id (${modelKey}.id, now "${model.wireId}")`;
      // A 200 that is not the API: a web page or some other body answered (stream-http.ts).
      if (failure.status === 200)
        return `Check providers.${provider}.base_url: it must be the address of the API (often ending in /v1)`;
      if (/requires --jinja/.test(failure.message))
        return "Start llama-server with --jinja (its default; tool calling needs it), or use an agent without tools";
      return undefined;
    default:
      return undefined;
  }
}

/**
 * A refused redirect: the base_url that sends requests where the redirect
 * pointed (its address less the endpoint's path), for a provider that
 * really moved; never followed on the user's behalf.
 */
function movedHint(target: string, setBase: (to: string) => string): string {
  let base: string | undefined;
  try {
    const to = new URL(target);
    to.search = "";
    to.hash = "";
    const path = to.pathname;
    for (const suffix of ["/chat/completions", "/responses", "/messages"]) {
      if (path.endsWith(suffix)) base = `${to.origin}${path.slice(0, -suffix.length)}`;
    }
  } catch {
    // no suggestion
  }
  const never = "Rienda never sends a key or a conversation to another origin on a redirect";
  return base
    ? `If the provider really moved, ${setBase(shownUrl(base))}; ${never}`
    : `Check where the provider lives: ${never}`;
}

/** The same hints for a provider module's model: what to change is what the module returns. */
function moduleHintFor(failure: ProviderFailure, model: ResolvedModel, module: string): string | undefined {
  switch (failure.kind) {
    case "network":
      if (/connection refused/.test(failure.message) && isLocalUrl(model.baseUrl))
        return `${startHintFor(model.baseUrl)}, or change the base_url that ${module} returns`;
      return `Check the base_url that ${module} returns, and your network (HTTPS_PROXY is honoured)`;
    case "authentication":
      return keyHint(model, keyPart(model.provider));
    case "context_length":
      return `Set the model's context_window in what ${module} returns, so Rienda compacts the conversation before it gets this long`;
    case "invalid_request":
      if (failure.redirectedTo !== undefined)
        return movedHint(failure.redirectedTo, (to) => `change the base_url that ${module} returns to ${to}`);
      if (failure.status === 404 || failure.status === 200)
        return `Check the base_url and the model id ("${model.wireId}") that ${module} returns`;
      return undefined;
    default:
      return undefined;
  }
}

/** Where the refused key came from: not set, written in the file, or which `${NAME}` (set, empty or unset). */
function keyHint(model: ResolvedModel, provider: string): string {
  const source = model.apiKeySource;
  const path = source?.path ?? `providers.${provider}.api_key`;
  if (!source) return `Check ${path}`;
  if (source.kind === "absent")
    return `${path} is not set in config.yaml, so no key was sent; set it (e.g. api_key: \${${provider.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}_API_KEY})`;
  if (source.kind === "written") return `Check ${path}: the key is written in config.yaml`;
  if (source.kind === "credentials")
    return `Check the key of ${source.provider} in ${path} (stored by rienda auth): run rienda auth set ${source.provider} to replace it`;
  const parts = source.variables.map((v) => (v.state === "set" ? `\${${v.name}}` : `\${${v.name}} (${v.state})`));
  const problem = source.variables.some((v) => v.state !== "set");
  return problem
    ? `${path} comes from ${parts.join(", ")}: set that variable to the provider's key`
    : `Check ${path}: its key comes from ${parts.join(", ")} (is that variable's value the right key?)`;
}

/** How to start the local server that usually listens on this port. */
/** A key path segment as config.md writes it: bare when plain, quoted otherwise. */
function keyPart(name: string): string {
  return /^[A-Za-z0-9_-]+$/.test(name) ? name : JSON.stringify(name);
}
