// ~/.rienda/tools/publish/index.js
// Pushes the workspace's current branch, after asking the user. In a
// non-interactive run the question is answered by -y (yes) or its absence
// (no), so `rienda run` without -y never pushes.
module.exports = {
  description: "Publishes the current branch.",
  parameters: { type: "object", properties: {}, additionalProperties: false },
  execute: function(ctx) {
    if (!ctx.confirm({ title: "Publish", body: "Push the current branch?" })) {
      return { text: "cancelled by the user", isError: true };
    }
    const result = ctx.system.exec("git push");
    return result.code === 0
      ? "pushed"
      : { text: result.stderr, isError: true };
  },
};
