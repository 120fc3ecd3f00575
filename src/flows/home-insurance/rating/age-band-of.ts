import { AGE_BANDS } from "./rating-tables.ts";

/** The age band of a home built in `yearBuilt`, rated in `ratingYear`: its age is their difference in whole years. */
export function ageBandOf(yearBuilt: number, ratingYear: number): { label: string; multiplier: number; age: number } {
  const age = ratingYear - yearBuilt;
  // The last band is open-ended, so every age finds one.
  const band = AGE_BANDS.find((candidate) => age <= candidate.maxAge)!;
  return { label: band.label, multiplier: band.multiplier, age };
}
