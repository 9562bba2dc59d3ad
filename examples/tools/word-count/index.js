// ~/.rienda/tools/word-count/index.js
// The first tool of the tools page: counts the words of a workspace file.
// `rienda init` installs this very file (a test keeps the two identical).
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
    return String(text.trim().split(/\s+/).length);
  },
};
