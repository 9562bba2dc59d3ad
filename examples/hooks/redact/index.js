// ~/.rienda/hooks/redact/index.js
// Replaces strings that look like secrets (API keys, tokens, private keys)
// in the model's answer and thinking before they are printed or stored in
// the session file, and says how many it removed. More patterns (regular
// expression sources) can be added in config.yaml:
//
//   config:
//     redact:
//       patterns: ["corp-[0-9a-f]{32}"]
//
// It sees only what the model writes; tool results and tool-call arguments
// are not changed.
const PATTERNS = [
  /\bsk-[A-Za-z0-9_-]{20,}/g, // OpenAI, Anthropic (sk-ant-...), OpenRouter (sk-or-...)
  /\bgh[pousr]_[A-Za-z0-9]{36,}/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{22,}/g, // GitHub fine-grained tokens
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key ids
  /\bAIza[0-9A-Za-z_-]{35}/g, // Google API keys
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, // Slack tokens
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
];

function extraPatterns(ctx) {
  const settings = (ctx.config.config || {}).redact || {};
  const sources = Array.isArray(settings.patterns) ? settings.patterns : [];
  const patterns = [];
  for (const source of sources) {
    try {
      const pattern = new RegExp(String(source), "g");
      // A pattern that matches the empty string would redact between every character.
      if (new RegExp(pattern.source).test("")) throw new Error("it matches the empty string");
      patterns.push(pattern);
    } catch (error) {
      ctx.notify({ title: "redact", body: "ignoring config.redact.patterns entry " + JSON.stringify(source) + ": " + error.message });
    }
  }
  return patterns;
}

module.exports = {
  afterModelResponse(ctx, response) {
    const patterns = PATTERNS.concat(extraPatterns(ctx));
    let count = 0;
    const scrub = (text) =>
      patterns.reduce(
        (current, pattern) =>
          current.replace(pattern, () => {
            count++;
            return "[redacted]";
          }),
        text,
      );
    const text = scrub(response.text);
    const thinking = scrub(response.thinking);
    if (count === 0) return undefined;
    ctx.notify({ title: "redact", body: "removed " + count + (count === 1 ? " secret" : " secrets") + " from the model's answer" });
    return { text, thinking };
  },
};
