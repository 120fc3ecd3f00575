import type { Claim } from "./property-facts.ts";
import { CLAIMS_LOOKBACK_YEARS } from "./rating-tables.ts";

/**
 * The claims that count: those of the rating year and the four calendar years before it (2023–2027
 * when rating in 2027). Claims are remembered by year, so the look-back is whole calendar years.
 */
export function claimsInLookback(
  claims: readonly Claim[],
  ratingYear: number,
): { claims: Claim[]; from: number; to: number } {
  const from = ratingYear - CLAIMS_LOOKBACK_YEARS + 1;
  return { claims: claims.filter((claim) => claim.year >= from && claim.year <= ratingYear), from, to: ratingYear };
}
