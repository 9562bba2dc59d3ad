/**
 * The figures of a config.yaml model that the catalogue knows: context
 * window, output cap and prices, from the entry of its wire id at the
 * models.dev provider(s) its endpoint designates (endpoints.ts). Where two
 * providers share an endpoint (a pay-as-you-go plan and a subscription
 * plan), a figure is given only when both entries agree on it.
 */
import { catalogueProvidersFor } from "./endpoints.ts";
import { providerEntry } from "./snapshot.ts";

/** Rates in US dollars per million tokens; the shape of ModelPrices (providers/types.ts). */
export interface CatalogueRates {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** Rates for a request whose prompt is longer than `aboveTokens` (models.dev's context tiers). */
export interface CataloguePriceTier extends CatalogueRates {
  aboveTokens: number;
}

/** A model's prices: base rates, and higher ones for long prompts when the vendor charges them. */
export interface CataloguePrices extends CatalogueRates {
  tiers?: CataloguePriceTier[];
}

/** What the catalogue says of a model; each figure only when known and agreed on. */
export interface CatalogueFigures {
  /** The models.dev provider ids whose entries gave the figures. */
  providers: string[];
  contextWindow?: number;
  maxOutputTokens?: number;
  prices?: CataloguePrices;
}

/** A config.yaml provider as the lookup needs it. */
export interface CatalogueEndpoint {
  preset?: string;
  baseUrl: string;
}

type Entry = Record<string, unknown>;

/** The catalogue's figures for `wireId` at `endpoint`, or undefined when no designated provider lists it. */
export function catalogueFigures(endpoint: CatalogueEndpoint, wireId: string): CatalogueFigures | undefined {
  const found: Array<{ provider: string; model: Entry }> = [];
  for (const provider of catalogueProvidersFor(endpoint.preset, endpoint.baseUrl)) {
    const model = modelOf(providerEntry(provider), wireId);
    if (model) found.push({ provider, model });
  }
  if (found.length === 0) return undefined;
  const figures: CatalogueFigures = { providers: found.map((f) => f.provider) };
  const limit = (model: Entry) => (isEntry(model.limit) ? model.limit : {});
  const contextWindow = agreed(found.map((f) => positive(limit(f.model).context)));
  const maxOutputTokens = agreed(found.map((f) => positive(limit(f.model).output)));
  const prices = agreed(found.map((f) => pricesOf(f.model.cost)));
  if (contextWindow !== undefined) figures.contextWindow = contextWindow;
  if (maxOutputTokens !== undefined) figures.maxOutputTokens = maxOutputTokens;
  if (prices !== undefined) figures.prices = prices;
  return figures;
}

/** The provider's entry for `wireId`: exact, else the one id that differs only in case. */
function modelOf(provider: Entry | undefined, wireId: string): Entry | undefined {
  const models = provider?.models;
  if (!isEntry(models)) return undefined;
  if (Object.hasOwn(models, wireId) && isEntry(models[wireId])) return models[wireId];
  const lower = wireId.toLowerCase();
  const alike = Object.keys(models).filter((id) => id.toLowerCase() === lower);
  const only = alike.length === 1 ? models[alike[0]!] : undefined;
  return isEntry(only) ? only : undefined;
}

/**
 * The entry's `cost` as prices, or undefined when it has none or bills in
 * a way the rates cannot carry (reasoning tokens at their own rate, tiers
 * by something other than prompt length).
 */
export function pricesOf(cost: unknown): CataloguePrices | undefined {
  if (!isEntry(cost)) return undefined;
  const base = ratesOf(cost);
  if (!base) return undefined;
  const tiers = tiersOf(cost);
  if (tiers === null) return undefined;
  return tiers.length > 0 ? { ...base, tiers } : base;
}

/** The context tiers, lowest first; [] when none; null when one cannot be read. */
function tiersOf(cost: Entry): CataloguePriceTier[] | null {
  const listed: unknown[] = Array.isArray(cost.tiers) ? [...cost.tiers] : [];
  // The older form: one tier above 200k tokens, written only as `context_over_200k`.
  if (listed.length === 0 && isEntry(cost.context_over_200k))
    listed.push({ ...cost.context_over_200k, tier: { type: "context", size: 200_000 } });
  const tiers: CataloguePriceTier[] = [];
  for (const tier of listed) {
    const rates = isEntry(tier) ? ratesOf(tier) : undefined;
    const shape = isEntry(tier) && isEntry(tier.tier) ? tier.tier : undefined;
    const size = shape?.size;
    if (!rates || (shape?.type ?? "context") !== "context" || typeof size !== "number" || !(size >= 0)) return null;
    tiers.push({ aboveTokens: size, ...rates });
  }
  return tiers.sort((a, b) => a.aboveTokens - b.aboveTokens);
}

/** The rates of a cost (or of one tier); undefined without input and output, or with reasoning tokens at a rate of their own. */
function ratesOf(cost: Entry): CatalogueRates | undefined {
  const { input, output, cache_read: cacheRead, cache_write: cacheWrite } = cost;
  if (!isPrice(input) || !isPrice(output)) return undefined;
  if (cost.reasoning !== undefined && cost.reasoning !== output) return undefined;
  const rates: CatalogueRates = { input, output };
  if (isPrice(cacheRead)) rates.cacheRead = cacheRead;
  if (isPrice(cacheWrite)) rates.cacheWrite = cacheWrite;
  return rates;
}

/** The one value every entry gives, or undefined when one lacks it or two differ. */
function agreed<T>(values: Array<T | undefined>): T | undefined {
  const first = values[0];
  if (first === undefined) return undefined;
  const text = JSON.stringify(first);
  return values.every((value) => value !== undefined && JSON.stringify(value) === text) ? first : undefined;
}

function positive(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined;
}

function isPrice(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

function isEntry(value: unknown): value is Entry {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
