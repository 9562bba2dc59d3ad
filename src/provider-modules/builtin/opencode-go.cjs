// opencode-go: Rienda's built-in provider of the OpenCode Go plan, as the Go
// Rienda ships it: chat completions at https://opencode.ai/zen/go/v1, the
// session id in x-opencode-session, a key from `rienda auth`, the models of
// models.dev's entry "opencode-go" (models-dev-roster.cjs says where the
// catalogue comes from). A module ~/.rienda/providers/opencode-go/index.js
// replaces it entirely.
const { catalogueEntry, roster } = require("./models-dev-roster.cjs");

module.exports = function opencodeGo(ctx, snapshot) {
  return {
    protocol: "openai_chat_completions",
    base_url: "https://opencode.ai/zen/go/v1",
    session_header: "x-opencode-session",
    auth: "api_key",
    models: roster(catalogueEntry(ctx, "opencode-go", snapshot)),
  };
};
