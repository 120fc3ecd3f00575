import type { ConstructionClass } from "./rating-tables.ts";

/** One past insurance claim on the home, as the homeowner remembers it. */
export interface Claim {
  year: number;
  cause: string;
}

/** Everything the premium is rated on. Money in integer cents. */
export interface PropertyFacts {
  dwellingValueCents: number;
  construction: ConstructionClass;
  yearBuilt: number;
  zipCode: string;
  deductibleCents: number;
  claims: Claim[];
}
