import { dollarsText } from "../../values.ts";

/** A cost column's cell: the one dollar format, "-" when unknown. */
export function costCell(cost: number | null): string {
  return cost === null ? "-" : dollarsText(cost);
}
