// ~/.rienda/tools/release-tag/index.js
// NEEDS NETWORK: asks the GitHub API for a repository's latest release.
// Without network access the call fails and the model reads the error.
// GITHUB_API_URL (set by GitHub Actions, and the address of a GitHub
// Enterprise server's API) replaces https://api.github.com when it is set.
module.exports = {
  description: "Returns the latest release tag of a GitHub repository.",
  parameters: {
    type: "object",
    properties: { repo: { type: "string" } },
    required: ["repo"],
    additionalProperties: false,
  },
  execute: function(ctx, args) {
    const api = ctx.env.get("GITHUB_API_URL") || "https://api.github.com";
    const res = ctx.http.fetch(
      api + "/repos/" + args.repo + "/releases/latest",
    );
    if (res.status !== 200) {
      return { text: "HTTP " + res.status, isError: true };
    }
    return JSON.parse(res.body).tag_name;
  },
};
