import { UNIT } from "./rating-tables.ts";

/**
 * The premium in integer cents: `baseNumerator / baseDenominator` cents times every multiplier,
 * rounded once, half up, to the cent.
 *
 * The rounding rule: the product is computed exactly (BigInt) and rounded a single time at the end.
 * Rounding after each factor would make the premium depend on the order the factors are applied in
 * and let the cent errors compound; rounding once gives the one result a hand calculation gives.
 */
export function exactPremiumCents(
  baseNumerator: bigint,
  baseDenominator: bigint,
  multipliers: readonly number[],
): number {
  let numerator = baseNumerator;
  let denominator = baseDenominator;
  for (const multiplier of multipliers) {
    numerator *= BigInt(multiplier);
    denominator *= BigInt(UNIT);
  }
  // floor((2n + d) / 2d) rounds a non-negative n / d half up.
  return Number((2n * numerator + denominator) / (2n * denominator));
}
