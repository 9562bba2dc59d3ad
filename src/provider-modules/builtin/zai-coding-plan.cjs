// zai-coding-plan: Rienda's built-in provider of the Z.AI Coding Plan, as the
// Go Rienda ships it: chat completions at the address models.dev's entry
// "zai-coding-plan" gives (its `api`), a key from `rienda auth`, that entry's
// models (models-dev-roster.cjs says where the catalogue comes from). A module
// ~/.rienda/providers/zai-coding-plan/index.js replaces it entirely.
const { catalogueEntry, roster } = require("./models-dev-roster.cjs");

module.exports = function zaiCodingPlan(ctx, snapshot) {
  const entry = catalogueEntry(ctx, "zai-coding-plan", snapshot);
  if (!entry || typeof entry.api !== "string" || entry.api === "") {
    throw new Error("models.dev gives no address (api) for zai-coding-plan; it is tried again at the next start");
  }
  return {
    protocol: "openai_chat_completions",
    base_url: entry.api,
    auth: "api_key",
    models: roster(entry),
  };
};
