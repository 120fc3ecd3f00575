// The rating engine: pure functions over the tables in rating-tables.ts; money in integer cents.
export { rateHomePolicy, type RatedPolicy, type RatingFactor, type RatingResult } from "./rate-home-policy.ts";
export type { Claim, PropertyFacts } from "./property-facts.ts";
export {
  claimsProblem,
  deductibleProblem,
  dwellingValueProblem,
  yearBuiltProblem,
  zipCodeProblem,
} from "./eligibility-problems.ts";
export { constructionClassOf, type ConstructionMatch } from "./construction-class-of.ts";
export { territoryOf } from "./territory-of.ts";
export { formatCents } from "./format-cents.ts";
export {
  BASE_RATE_CENTS_PER_1000,
  DEDUCTIBLES,
  MINIMUM_PREMIUM_CENTS,
  type ConstructionClass,
} from "./rating-tables.ts";
