import { claimsInLookback } from "./claims-in-lookback.ts";
import { formatCents } from "./format-cents.ts";
import type { Claim, PropertyFacts } from "./property-facts.ts";
import {
  CLAIMS_DECLINED_AT,
  CONSTRUCTION,
  DEDUCTIBLES,
  DWELLING_VALUE_RANGE_CENTS,
  EARLIEST_YEAR_BUILT,
} from "./rating-tables.ts";
import { territoryOf } from "./territory-of.ts";

// Each check returns why the answer cannot be rated (a sentence for the user), or undefined when it can.

export function dwellingValueProblem(cents: number): string | undefined {
  const { min, max } = DWELLING_VALUE_RANGE_CENTS;
  if (Number.isInteger(cents) && cents >= min && cents <= max) return undefined;
  const side = cents > max ? "above" : "below";
  return `We insure homes with a dwelling value from ${formatCents(min)} to ${formatCents(max)}; ${formatCents(cents)} is ${side} that.`;
}

export function constructionProblem(construction: string): string | undefined {
  return Object.hasOwn(CONSTRUCTION, construction)
    ? undefined
    : `"${construction}" is not a construction class; the classes are ${Object.keys(CONSTRUCTION).join(", ")}.`;
}

export function yearBuiltProblem(year: number, ratingYear: number): string | undefined {
  if (!Number.isInteger(year)) return `${year} is not a year.`;
  if (year > ratingYear) return `A home cannot have been built in ${year}: it is ${ratingYear} now.`;
  if (year < EARLIEST_YEAR_BUILT)
    return `${year} is before ${EARLIEST_YEAR_BUILT}, the earliest year built we rate; it may be a typing mistake.`;
  return undefined;
}

export function zipCodeProblem(zipCode: string): string | undefined {
  if (!/^\d{5}$/.test(zipCode)) return `"${zipCode}" is not a 5-digit ZIP code.`;
  if (!territoryOf(zipCode))
    return `ZIP code ${zipCode} is outside our service area: we insure homes in Oregon and Washington only.`;
  return undefined;
}

export function deductibleProblem(cents: number): string | undefined {
  if (DEDUCTIBLES.has(cents)) return undefined;
  const offered = [...DEDUCTIBLES.keys()].map(formatCents);
  return `A ${formatCents(cents)} deductible is not offered; the deductibles are ${offered.slice(0, -1).join(", ")} and ${offered.at(-1)}.`;
}

export function claimsProblem(claims: readonly Claim[], ratingYear: number): string | undefined {
  const future = claims.find((claim) => claim.year > ratingYear);
  if (future) return `A claim in ${future.year} (${future.cause}) is in the future: it is ${ratingYear} now.`;
  const counted = claimsInLookback(claims, ratingYear);
  if (counted.claims.length < CLAIMS_DECLINED_AT) return undefined;
  const listed = counted.claims.map((claim) => `${claim.cause} ${claim.year}`).join(", ");
  return (
    `${counted.claims.length} claims in the last five years (${counted.from}–${counted.to}: ${listed}) are too many: ` +
    `a home with ${CLAIMS_DECLINED_AT} or more claims in that time is not eligible.`
  );
}

/** Every reason the facts cannot be rated in `ratingYear`; empty when the home is eligible. */
export function eligibilityProblems(facts: PropertyFacts, ratingYear: number): string[] {
  return [
    dwellingValueProblem(facts.dwellingValueCents),
    constructionProblem(facts.construction),
    yearBuiltProblem(facts.yearBuilt, ratingYear),
    zipCodeProblem(facts.zipCode),
    deductibleProblem(facts.deductibleCents),
    claimsProblem(facts.claims, ratingYear),
  ].filter((problem) => problem !== undefined);
}
