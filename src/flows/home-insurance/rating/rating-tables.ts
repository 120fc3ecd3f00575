/**
 * HomeInsuranceFlow's rating manual: every number the premium depends on. Multipliers are whole
 * ten-thousandths (10000 = ×1.00) so the premium can be computed exactly in integers; money is in
 * integer cents.
 */

/** 10000 ten-thousandths = ×1.00. */
export const UNIT = 10_000;

/** $3.50 of premium per $1,000 of dwelling value, before any multiplier. */
export const BASE_RATE_CENTS_PER_1000 = 350;

/** No policy is written for less than $400.00 a year. */
export const MINIMUM_PREMIUM_CENTS = 40_000;

/** The dwelling values written, inclusive: $100,000 to $1,500,000. */
export const DWELLING_VALUE_RANGE_CENTS = Object.freeze({ min: 10_000_000, max: 150_000_000 });

/** The oldest year built rated; older answers are taken for typing mistakes. */
export const EARLIEST_YEAR_BUILT = 1800;

export type ConstructionClass = "frame" | "masonry" | "superior";

/** By class of exterior walls; `aliases` are the words a homeowner uses for each. */
export const CONSTRUCTION: Readonly<Record<ConstructionClass, { multiplier: number; aliases: readonly string[] }>> =
  Object.freeze({
    frame: { multiplier: 10_000, aliases: ["frame", "wood frame", "wood", "timber", "log"] },
    masonry: { multiplier: 9_000, aliases: ["masonry", "brick", "stone", "concrete block", "cinder block", "block"] },
    superior: {
      multiplier: 8_200,
      aliases: [
        "superior",
        "fire-resistive",
        "fire resistive",
        "poured concrete",
        "reinforced concrete",
        "concrete",
        "steel",
      ],
    },
  });

/** By the home's age in whole years (rating year − year built); `maxAge` is inclusive, the last band open. */
export const AGE_BANDS: readonly { label: string; maxAge: number; multiplier: number }[] = Object.freeze([
  { label: "0–10 years", maxAge: 10, multiplier: 9_000 },
  { label: "11–25 years", maxAge: 25, multiplier: 10_000 },
  { label: "26–40 years", maxAge: 40, multiplier: 11_000 },
  { label: "41–60 years", maxAge: 60, multiplier: 12_500 },
  { label: "61 years or more", maxAge: Number.POSITIVE_INFINITY, multiplier: 14_500 },
]);

export interface Territory {
  code: string;
  name: string;
  multiplier: number;
  /** The first three digits of the ZIP codes in the territory. */
  zipPrefixes: readonly string[];
}

/** The service area, Oregon and Washington, by ZIP prefix; a ZIP outside every territory is not written. */
export const TERRITORIES: readonly Territory[] = Object.freeze([
  { code: "T1", name: "Portland metro", multiplier: 10_000, zipPrefixes: ["970", "971", "972"] },
  { code: "T2", name: "Willamette Valley", multiplier: 9_200, zipPrefixes: ["973", "974"] },
  {
    code: "T3",
    name: "Southern and Eastern Oregon",
    multiplier: 11_800,
    zipPrefixes: ["975", "976", "977", "978", "979"],
  },
  { code: "T4", name: "Seattle metro", multiplier: 10_600, zipPrefixes: ["980", "981"] },
  { code: "T5", name: "Western Washington", multiplier: 9_700, zipPrefixes: ["982", "983", "984", "985", "986"] },
  {
    code: "T6",
    name: "Eastern Washington",
    multiplier: 10_900,
    zipPrefixes: ["988", "989", "990", "991", "992", "993", "994"],
  },
]);

/** The deductibles offered, by amount in cents. */
export const DEDUCTIBLES: ReadonlyMap<number, number> = new Map([
  [50_000, 11_200],
  [100_000, 10_000],
  [250_000, 8_900],
  [500_000, 8_000],
]);

/** How many calendar years, the rating year included, the claims history looks back. */
export const CLAIMS_LOOKBACK_YEARS = 5;

/** Surcharge by the number of claims in the look-back; from `CLAIMS_DECLINED_AT` on the home is declined. */
export const CLAIMS_SURCHARGES: readonly number[] = Object.freeze([10_000, 12_000, 14_500]);
export const CLAIMS_DECLINED_AT = CLAIMS_SURCHARGES.length;
