import { BASE_RATE_CENTS_PER_1000, formatCents, MINIMUM_PREMIUM_CENTS, type RatingFactor } from "./rating/index.ts";

/**
 * The quote as the user is told it, with the multipliers it was rated with, e.g. "Quote: $1,767.15 a
 * year: $3.50 per $1,000 of dwelling value × 0.90 construction (masonry) × … ".
 */
export function describeQuote(quote: {
  premiumCents: number;
  factors: readonly RatingFactor[];
  minimumPremiumApplied: boolean;
}): string {
  const rated = quote.factors.map((factor) => `× ${factor.multiplier} ${factor.factor} (${factor.basis})`).join(" ");
  const minimum = quote.minimumPremiumApplied
    ? `, raised to the minimum premium of ${formatCents(MINIMUM_PREMIUM_CENTS)}`
    : "";
  return (
    `Quote: ${formatCents(quote.premiumCents)} a year: ` +
    `${formatCents(BASE_RATE_CENTS_PER_1000)} per $1,000 of dwelling value ${rated}${minimum}.`
  );
}
