/**
 * The figures a config.yaml model leaves out (`context_window`, `cost:`)
 * taken from the models.dev snapshot shipped in the binary, when its
 * endpoint is a catalogue provider's (docs/config.md; models-dev/'s
 * endpoints.ts says which). Written figures always win; a server of one's
 * own gets nothing. Never a network request.
 */
import { catalogueFigures, SNAPSHOT_NAME } from "../models-dev/index.ts";
import type { ResolvedModel } from "../providers/types.ts";

/**
 * Catalogue providers whose one rate is not the bill: DeepSeek charges peak
 * and off-peak rates since August 2026 (default-prices.ts leaves it out for
 * the same reason). Their models get the catalogue's context window, and
 * prices only from `cost:`.
 */
const BILLED_BY_THE_HOUR: readonly string[] = ["deepseek"];

/** Fills in `model`'s missing context window and prices from the catalogue's entry for its wire id. */
export function fillFromCatalogue(model: ResolvedModel, preset: string | undefined): void {
  if (model.contextWindow !== undefined && model.prices !== undefined) return;
  if (model.protocol === "replay" || model.baseUrl === "") return;
  const figures = catalogueFigures(
    preset === undefined ? { baseUrl: model.baseUrl } : { preset, baseUrl: model.baseUrl },
    model.wireId,
  );
  if (!figures) return;
  if (model.contextWindow === undefined && figures.contextWindow !== undefined) {
    model.contextWindow = figures.contextWindow;
    // Messages about the window name where it came from (providers/context-window-text.ts).
    model.contextWindowSource = SNAPSHOT_NAME;
  }
  const billedByTheHour = figures.providers.some((id) => BILLED_BY_THE_HOUR.includes(id));
  if (model.prices === undefined && figures.prices !== undefined && !billedByTheHour) model.prices = figures.prices;
}
