// ~/.rienda/tools/word-count/index.js
// Counts the words of a workspace file (an empty file has 0 words).
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
    const words = ctx.file.read(args.path).split(/\s+/).filter(Boolean);
    return String(words.length);
  },
};
