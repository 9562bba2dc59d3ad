/**
 * Examples of the spec pages (tools.md, hooks.md), verbatim, for the tests
 * that check they work as written: one copy, so a change of the page is
 * made once.
 */

/** tools.md, "Your first tool". */
export const WORD_COUNT = `// ~/.rienda/tools/word-count/index.js
module.exports = {
  description: "Counts the words of a file in the workspace.",
  parameters: {
    type: "object",
    properties: {
      path: { type: "string", description: "Path relative to the workspace." },
    },
    required: ["path"],
    additionalProperties: false,
  },
  execute: function(ctx, args) {
    const text = ctx.file.read(args.path);
    return String(text.trim().split(/\\s+/).length);
  },
};
`;

/** tools.md, "Examples": read a JSON file and return one field. */
export const JSON_FIELD = `module.exports = {
  description: "Reads a field from a JSON file in the workspace.",
  parameters: {
    type: "object",
    properties: { path: { type: "string" }, field: { type: "string" } },
    required: ["path", "field"],
    additionalProperties: false,
  },
  execute: function(ctx, args) {
    const data = JSON.parse(ctx.file.read(args.path));
    return JSON.stringify(data[args.field]);
  },
};
`;

/** hooks.md, "Example", verbatim. */
export const GUARD = `// ~/.rienda/hooks/guard/index.js
module.exports = {
  beforeToolExecute(ctx, call) {
    const cmd = (call.arguments && call.arguments.command) || "";
    if (call.name === "shell" && /\\brm\\s+-rf\\b/.test(cmd)) {
      const ok = ctx.confirm({ title: "Dangerous command", body: cmd });
      if (!ok) return { allow: false, reason: "refused by the user" };
    }
  },
  afterRun(ctx, event) {
    ctx.notify({ title: "rienda", body: "run finished: " + event.reason });
  },
};
`;
