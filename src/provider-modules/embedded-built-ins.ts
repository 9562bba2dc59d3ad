/**
 * The built-in modules' files as `bun build --compile` embeds them: each
 * import gives the file's path inside the binary (`/$bunfs/...`), readable
 * with node:fs. Imported by built-in-files.ts in the compiled binary only.
 */
import modelsDevRoster from "./builtin/models-dev-roster.cjs" with { type: "file" };
import opencodeGo from "./builtin/opencode-go.cjs" with { type: "file" };
import zaiCodingPlan from "./builtin/zai-coding-plan.cjs" with { type: "file" };

/** File name in builtin/ -> its embedded path. */
export const EMBEDDED_FILES: Readonly<Record<string, string>> = Object.freeze({
  "models-dev-roster.cjs": modelsDevRoster,
  "opencode-go.cjs": opencodeGo,
  "zai-coding-plan.cjs": zaiCodingPlan,
});
