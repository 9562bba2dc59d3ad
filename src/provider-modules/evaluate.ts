/**
 * One evaluation of a provider module (go-current.md §3): `module.exports`
 * called once, synchronously, in a fresh context of the runtime, its value
 * read into ProviderSettings, or the one line that says why the provider is
 * skipped: `provider "<name>": <reason>`. Never rejects.
 */
import { snapshotProvider, SNAPSHOT_DATE } from "../models-dev/index.ts";
import type { Outcome } from "../runtime/index.ts";
import { describeValue } from "../values.ts";
import { builtInModuleFile } from "./built-in-files.ts";
import { DeclarationRefused } from "./declaration-fields.ts";
import { moduleInvocation } from "./module-context.ts";
import { isDeclarationObject, readDeclaration } from "./read-declaration.ts";
import type { CatalogueSnapshot, EvaluateOptions, Evaluation, ModuleEntry } from "./types.ts";

/**
 * A module that has not returned by then is interrupted: a choice, not a
 * measurement; twice the built-ins' 30 s wait for models.dev, so that a
 * module stuck in a loop cannot hold every start of Rienda forever.
 */
const EVALUATION_TIMEOUT_MS = 60_000;

/** Calls the module of `entry` and reads what it returns. */
export async function evaluateProviderModule(entry: ModuleEntry, options: EvaluateOptions): Promise<Evaluation> {
  const problem = (reason: string): Evaluation => ({ problem: `provider ${JSON.stringify(entry.name)}: ${reason}` });
  let file: { path: string; dispose(): void };
  try {
    file = entry.origin === "module" ? { path: entry.path, dispose: () => {} } : await builtInModuleFile(entry.name);
  } catch (error) {
    return problem(`the built-in module cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  const timeoutMs = options.timeoutMs ?? EVALUATION_TIMEOUT_MS;
  const timer = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([options.signal, timer]);
  let outcome: Outcome;
  try {
    outcome = await options.runtime.invoke({
      modulePath: file.path,
      exportName: "",
      args: argumentsOf(entry, options.snapshot ?? SHIPPED_SNAPSHOT),
      context: moduleInvocation(entry.folder, options, signal),
    });
  } finally {
    file.dispose();
  }
  if (outcome.kind === "interrupted")
    return problem(
      timer.aborted && !options.signal.aborted
        ? `the module did not return within ${timeoutMs / 1000} s`
        : "interrupted",
    );
  if (outcome.kind === "load-failed") return problem(outcome.message);
  if (outcome.kind === "threw") return problem(`module threw: ${outcome.message}`);
  if (outcome.type === "a Promise")
    return problem(
      `module returned a Promise: a provider module returns its declaration synchronously (drop "async" and "await": ctx calls return their answers directly)`,
    );
  if (!isDeclarationObject(outcome.value))
    return problem(
      `module returned ${outcome.type === "an object" ? describeValue(outcome.value) : outcome.type} instead of a declaration object`,
    );
  try {
    return { provider: readDeclaration(entry.name, entry.origin, outcome.value) };
  } catch (error) {
    if (error instanceof DeclarationRefused) return problem(error.message);
    throw error;
  }
}

/**
 * A user module is called with ctx alone, as in the Go program; a built-in
 * also gets `{date, provider}`, its entry of the models.dev snapshot shipped
 * in the binary (provider null when there is none), for when models.dev
 * cannot be reached.
 */
function argumentsOf(entry: ModuleEntry, snapshot: CatalogueSnapshot): unknown[] {
  if (entry.origin === "module") return [];
  return [{ date: snapshot.date, provider: snapshot.provider(entry.name) ?? null }];
}

const SHIPPED_SNAPSHOT: CatalogueSnapshot = { date: SNAPSHOT_DATE, provider: snapshotProvider };
