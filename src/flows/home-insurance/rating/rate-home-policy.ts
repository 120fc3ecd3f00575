import { ageBandOf } from "./age-band-of.ts";
import { claimsInLookback } from "./claims-in-lookback.ts";
import { eligibilityProblems } from "./eligibility-problems.ts";
import { exactPremiumCents } from "./exact-premium.ts";
import { formatCents, formatMultiplier } from "./format-cents.ts";
import type { PropertyFacts } from "./property-facts.ts";
import {
  BASE_RATE_CENTS_PER_1000,
  CLAIMS_SURCHARGES,
  CONSTRUCTION,
  DEDUCTIBLES,
  MINIMUM_PREMIUM_CENTS,
} from "./rating-tables.ts";
import { territoryOf } from "./territory-of.ts";

/** One multiplier applied to the base premium, and the fact it was looked up by. */
export interface RatingFactor {
  factor: "construction" | "age" | "territory" | "deductible" | "claims";
  basis: string;
  /** Two decimals, e.g. "0.89". */
  multiplier: string;
}

export interface RatedPolicy {
  eligible: true;
  /** The annual premium in integer cents. */
  premiumCents: number;
  ratingYear: number;
  factors: RatingFactor[];
  /** The rated premium was under the minimum premium, which was charged instead. */
  minimumPremiumApplied: boolean;
}

export type RatingResult = RatedPolicy | { eligible: false; reasons: string[] };

/** $1,000 of dwelling value, in cents. */
const PER_1000_CENTS = 100_000n;

/**
 * Rates a home for a year's cover: the base rate per $1,000 of dwelling value times the construction,
 * age, territory, deductible and claims multipliers, rounded once to the cent (see exactPremiumCents),
 * and never under the minimum premium. Pure: the same facts and year always give the same result.
 */
export function rateHomePolicy(facts: PropertyFacts, ratingYear: number): RatingResult {
  const reasons = eligibilityProblems(facts, ratingYear);
  if (reasons.length) return { eligible: false, reasons };

  const age = ageBandOf(facts.yearBuilt, ratingYear);
  // The eligibility checks above guarantee the territory, the deductible and the claims surcharge exist.
  const territory = territoryOf(facts.zipCode)!;
  const lookback = claimsInLookback(facts.claims, ratingYear);
  const count = lookback.claims.length;
  const applied: { factor: RatingFactor["factor"]; basis: string; multiplier: number }[] = [
    { factor: "construction", basis: facts.construction, multiplier: CONSTRUCTION[facts.construction].multiplier },
    { factor: "age", basis: `built ${facts.yearBuilt}, ${age.label}`, multiplier: age.multiplier },
    { factor: "territory", basis: `${territory.code} ${territory.name}`, multiplier: territory.multiplier },
    {
      factor: "deductible",
      basis: formatCents(facts.deductibleCents),
      multiplier: DEDUCTIBLES.get(facts.deductibleCents)!,
    },
    {
      factor: "claims",
      basis: `${count} claim${count === 1 ? "" : "s"} in ${lookback.from}–${lookback.to}`,
      multiplier: CLAIMS_SURCHARGES[count]!,
    },
  ];
  const rated = exactPremiumCents(
    BigInt(facts.dwellingValueCents) * BigInt(BASE_RATE_CENTS_PER_1000),
    PER_1000_CENTS,
    applied.map((factor) => factor.multiplier),
  );
  return {
    eligible: true,
    premiumCents: Math.max(rated, MINIMUM_PREMIUM_CENTS),
    ratingYear,
    factors: applied.map((factor) => ({ ...factor, multiplier: formatMultiplier(factor.multiplier) })),
    minimumPremiumApplied: rated < MINIMUM_PREMIUM_CENTS,
  };
}
