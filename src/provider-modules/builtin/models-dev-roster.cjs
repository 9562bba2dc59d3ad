// Shared by Rienda's built-in provider modules (opencode-go, zai-coding-plan):
// the models.dev catalogue (https://models.dev/api.json) and its conversion
// into a provider module's model roster (docs/provider-modules.md, "Built-in
// modules"). A provider module like any other: it runs in the same runtime,
// with nothing but its ctx.
//
// Where the provider's entry comes from, first that works:
// 1. ctx.cache entry "models.dev.<provider>": that entry alone, kept 4 hours
//    by Rienda (not the Go program) whenever it reads the catalogue, since
//    handing a catalogue of megabytes to a module costs a run hundreds of
//    milliseconds and the entry is some kilobytes;
// 2. ctx.cache entry "models.dev", the whole catalogue, which lives 4 hours
//    (shared with every module that reads it, and with the Go program);
// 3. a fetch of RIENDA_MODELS_DEV_URL (default https://models.dev/api.json),
//    cached for the next 4 hours;
// 4. the snapshot shipped inside Rienda (the module's second argument), which
//    the Go program does not have: offline, its built-ins declare no models.

const CATALOGUE_URL = "https://models.dev/api.json";
const CACHE_ENTRY = "models.dev";
const CACHE_SECONDS = 4 * 60 * 60;
const FETCH_TIMEOUT_MS = 30000;

// The adapter package a models.dev entry names -> the wire protocol Rienda
// speaks for it. A model of another adapter is left out.
const PROTOCOLS = {
  "@ai-sdk/openai": "openai_responses",
  "@ai-sdk/openai-compatible": "openai_chat_completions",
  "@ai-sdk/anthropic": "anthropic",
};

// models.dev marks a model that is not generally available with a status.
const SKIPPED_STATUSES = ["alpha", "beta", "deprecated"];

// "off" and "none" mean "no thinking" in Rienda's pickers: never a level.
const RESERVED_LEVELS = ["off", "none"];

// The models.dev provider entry `name` ({api, npm, models: {...}}), or null
// when neither the catalogue nor the snapshot has one. `snapshot` is
// {date, provider} (the provider null when the snapshot lacks it).
function catalogueEntry(ctx, name, snapshot) {
  const own = readCache(ctx, name, `${CACHE_ENTRY}.${name}`);
  if (own) return own;
  const cached = readCache(ctx, name, CACHE_ENTRY);
  if (cached) return keepEntry(ctx, name, entryOf(ctx, name, cached));
  let failure;
  try {
    return keepEntry(ctx, name, entryOf(ctx, name, fetchCatalogue(ctx)));
  } catch (error) {
    failure = reasonOf(error);
  }
  // Silently: a machine without network is a normal place for Rienda, and this is what it ships for it.
  if (snapshot && snapshot.provider) return snapshot.provider;
  ctx.log(`${name}: models.dev could not be read (${failure}) and Rienda ships no catalogue of ${name}: no models until models.dev can be reached`);
  return null;
}

// The cache entry `entry` while it lasts, parsed; null when there is none
// (or it is not JSON: it is read again from further down).
function readCache(ctx, name, entry) {
  try {
    const text = ctx.cache.get(entry);
    return typeof text === "string" ? JSON.parse(text) : null;
  } catch (error) {
    ctx.log(`${name}: the cache entry ${entry} cannot be used (${reasonOf(error)}); reading models.dev again`);
    return null;
  }
}

// The provider's entry, also kept alone for the next 4 hours (see above).
function keepEntry(ctx, name, entry) {
  if (entry) setCache(ctx, `${CACHE_ENTRY}.${name}`, JSON.stringify(entry));
  return entry;
}

function setCache(ctx, entry, text) {
  try {
    ctx.cache.set(entry, text, CACHE_SECONDS);
  } catch (error) {
    ctx.log(`models.dev: the cache entry ${entry} could not be written (${reasonOf(error)})`);
  }
}

// The catalogue fetched and parsed; cached only once it parsed.
function fetchCatalogue(ctx) {
  const url = ctx.env.get("RIENDA_MODELS_DEV_URL") || CATALOGUE_URL;
  const response = ctx.http.fetch(url, { timeout_ms: FETCH_TIMEOUT_MS });
  if (response.status !== 200) throw new Error(`${url} answered HTTP ${response.status}`);
  const catalogue = JSON.parse(response.body);
  setCache(ctx, CACHE_ENTRY, response.body);
  return catalogue;
}

function entryOf(ctx, name, catalogue) {
  const entry = catalogue && typeof catalogue === "object" ? catalogue[name] : undefined;
  if (entry && typeof entry === "object") return entry;
  ctx.log(`${name}: the models.dev catalogue has no entry "${name}"`);
  return null;
}

// The entry's models as a declaration's `models`, sorted by id: generally
// available ones whose adapter Rienda speaks and whose context window is known.
function roster(entry) {
  const models = entry && entry.models && typeof entry.models === "object" ? entry.models : {};
  const out = [];
  for (const id of Object.keys(models).sort()) {
    const model = models[id];
    if (!model || typeof model !== "object" || SKIPPED_STATUSES.includes(model.status)) continue;
    const protocol = PROTOCOLS[(model.provider && model.provider.npm) || entry.npm];
    const limit = model.limit || {};
    if (!protocol || !isPositiveInteger(limit.context)) continue;
    const declared = { id, name: typeof model.name === "string" ? model.name : "", protocol, context_window: limit.context };
    if (isPositiveInteger(limit.output)) declared.max_output_tokens = limit.output;
    declared.reasoning = model.reasoning === true;
    if (declared.reasoning) declared.thinking_modes = thinkingModes(model);
    out.push(declared);
  }
  return out;
}

// The levels of the model's effort option, in models.dev's order, without
// the reserved ones; none when it has no effort option (a model that reasons
// as the provider decides, or takes only an on/off switch or a budget).
function thinkingModes(model) {
  const options = Array.isArray(model.reasoning_options) ? model.reasoning_options : [];
  const effort = options.find((option) => option && option.type === "effort");
  const values = effort && Array.isArray(effort.values) ? effort.values : [];
  const levels = [];
  for (const level of values) {
    if (typeof level === "string" && level !== "" && !RESERVED_LEVELS.includes(level) && !levels.includes(level)) levels.push(level);
  }
  return levels.map((level) => ({ level, max_tokens: 0 }));
}

function reasonOf(error) {
  return String(error && error.message ? error.message : error);
}

function isPositiveInteger(value) {
  return Number.isInteger(value) && value > 0;
}

module.exports = { catalogueEntry, roster };
