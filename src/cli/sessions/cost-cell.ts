/** Dollars with two significant decimals at least (small runs cost fractions of a cent); "-" when unknown. */
export function costCell(cost: number | null): string {
  if (cost === null) return "-";
  if (cost === 0) return "$0";
  return cost >= 1 ? `$${cost.toFixed(2)}` : `$${cost.toPrecision(2).replace(/0+$/, "").replace(/\.$/, "")}`;
}
