/**
 * The built-in provider modules' files (builtin/), where the runtime can
 * load them: the files themselves when Rienda runs from source (Bun or
 * Deno), a private copy when they are embedded in the compiled binary, whose
 * embedded files Bun's `require` loads as ES modules (`module is not
 * defined`), not as the CommonJS a provider module is. They are `.cjs`
 * because package.json says `"type": "module"`, which makes Deno (as Node)
 * read a `.js` file of src/ as an ES module.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The modules inside the binary, by provider name (go-current.md §3). */
export const BUILT_IN_NAMES: readonly string[] = Object.freeze(["opencode-go", "zai-coding-plan"]);

/** A built-in's index file, ready to load; `dispose` removes a copy made for it. */
export interface BuiltInFile {
  path: string;
  dispose(): void;
}

/** The file of the built-in `name` (one of BUILT_IN_NAMES). */
export async function builtInModuleFile(name: string): Promise<BuiltInFile> {
  if (!isCompiled(import.meta.url)) {
    return { path: fileURLToPath(new URL(`./builtin/${name}.cjs`, import.meta.url)), dispose: () => {} };
  }
  // Only the compiled binary takes this import: Deno knows no `type: "file"` imports.
  const { EMBEDDED_FILES } = await import("./embedded-built-ins.ts");
  const copy = mkdtempSync(join(tmpdir(), "rienda-provider-"));
  try {
    // Every file of builtin/, the helper the modules share included, so their require("./...") finds it.
    for (const [file, embedded] of Object.entries(EMBEDDED_FILES))
      writeFileSync(join(copy, file), readFileSync(embedded), { mode: 0o600 });
  } catch (error) {
    rmSync(copy, { recursive: true, force: true });
    throw error;
  }
  return { path: join(copy, `${name}.cjs`), dispose: () => rmSync(copy, { recursive: true, force: true }) };
}

/** Whether this file runs from inside a `bun build --compile` binary (as worker-call.ts tells it). */
function isCompiled(url: string): boolean {
  return url.includes("/$bunfs/") || url.includes("/~BUN/");
}
