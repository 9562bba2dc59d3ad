/**
 * The built-in modules' files as `bun build --compile` embeds them: each
 * import gives the file's path inside the binary (`/$bunfs/...`), readable
 * with node:fs. Imported by built-in-files.ts in the compiled binary only.
 */
import modelsDevRoster from "./builtin/models-dev-roster.js" with { type: "file" };
import opencodeGo from "./builtin/opencode-go.js" with { type: "file" };
import zaiCodingPlan from "./builtin/zai-coding-plan.js" with { type: "file" };

/** File name in builtin/ -> its embedded path. */
export const EMBEDDED_FILES: Readonly<Record<string, string>> = Object.freeze({
  "models-dev-roster.js": modelsDevRoster,
  "opencode-go.js": opencodeGo,
  "zai-coding-plan.js": zaiCodingPlan,
});
