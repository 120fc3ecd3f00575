import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  constructionClassOf,
  rateHomePolicy,
  type PropertyFacts,
} from "../../../src/flows/home-insurance/rating/index.ts";

// Expected premiums are worked out by hand (exact fractions, one half-up rounding at the end), not
// by the engine: base = dwelling value × $3.50 / $1,000, times the five multipliers.

const RATING_YEAR = 2027;

/** $200,000 frame home built 2012 (age 15, ×1.00) in 97006 (T1, ×1.00), $1,000 deductible, no claims: $700.00. */
const BASELINE: PropertyFacts = {
  dwellingValueCents: 20_000_000,
  construction: "frame",
  yearBuilt: 2012,
  zipCode: "97006",
  deductibleCents: 100_000,
  claims: [],
};

const claims = (...years: number[]) => years.map((year) => ({ year, cause: "water damage" }));

interface RatedCase {
  name: string;
  facts: Partial<PropertyFacts>;
  premiumCents: number;
  /** Multipliers to check, by factor. */
  multipliers?: Record<string, string>;
  minimumPremiumApplied?: boolean;
}

const rated: RatedCase[] = [
  {
    name: "the baseline is the base rate alone",
    facts: {},
    premiumCents: 70_000,
    multipliers: { construction: "1.00", age: "1.00", territory: "1.00", deductible: "1.00", claims: "1.00" },
  },
  {
    name: "masonry takes 10% off",
    facts: { construction: "masonry" },
    premiumCents: 63_000,
    multipliers: { construction: "0.90" },
  },
  {
    name: "superior construction takes 18% off",
    facts: { construction: "superior" },
    premiumCents: 57_400,
    multipliers: { construction: "0.82" },
  },
  {
    name: "a home built this year (age 0) is in the newest band",
    facts: { yearBuilt: 2027 },
    premiumCents: 63_000,
    multipliers: { age: "0.90" },
  },
  {
    name: "age 10 is the last year of the 0–10 band",
    facts: { yearBuilt: 2017 },
    premiumCents: 63_000,
    multipliers: { age: "0.90" },
  },
  {
    name: "age 11 starts the 11–25 band",
    facts: { yearBuilt: 2016 },
    premiumCents: 70_000,
    multipliers: { age: "1.00" },
  },
  {
    name: "age 25 is the last year of the 11–25 band",
    facts: { yearBuilt: 2002 },
    premiumCents: 70_000,
    multipliers: { age: "1.00" },
  },
  {
    name: "age 26 starts the 26–40 band",
    facts: { yearBuilt: 2001 },
    premiumCents: 77_000,
    multipliers: { age: "1.10" },
  },
  {
    name: "age 40 is the last year of the 26–40 band",
    facts: { yearBuilt: 1987 },
    premiumCents: 77_000,
    multipliers: { age: "1.10" },
  },
  {
    name: "age 41 starts the 41–60 band",
    facts: { yearBuilt: 1986 },
    premiumCents: 87_500,
    multipliers: { age: "1.25" },
  },
  {
    name: "age 60 is the last year of the 41–60 band",
    facts: { yearBuilt: 1967 },
    premiumCents: 87_500,
    multipliers: { age: "1.25" },
  },
  {
    name: "age 61 and older is the oldest band",
    facts: { yearBuilt: 1966 },
    premiumCents: 101_500,
    multipliers: { age: "1.45" },
  },
  {
    name: "the earliest year built rated is 1800",
    facts: { yearBuilt: 1800 },
    premiumCents: 101_500,
    multipliers: { age: "1.45" },
  },
  {
    name: "territory T2 Willamette Valley (973)",
    facts: { zipCode: "97301" },
    premiumCents: 64_400,
    multipliers: { territory: "0.92" },
  },
  {
    name: "territory T3 Southern and Eastern Oregon (977)",
    facts: { zipCode: "97701" },
    premiumCents: 82_600,
    multipliers: { territory: "1.18" },
  },
  {
    name: "territory T4 Seattle metro (981)",
    facts: { zipCode: "98101" },
    premiumCents: 74_200,
    multipliers: { territory: "1.06" },
  },
  {
    name: "territory T5 Western Washington (985)",
    facts: { zipCode: "98501" },
    premiumCents: 67_900,
    multipliers: { territory: "0.97" },
  },
  {
    name: "territory T6 Eastern Washington (992)",
    facts: { zipCode: "99201" },
    premiumCents: 76_300,
    multipliers: { territory: "1.09" },
  },
  {
    name: "a $500 deductible costs 12% more",
    facts: { deductibleCents: 50_000 },
    premiumCents: 78_400,
    multipliers: { deductible: "1.12" },
  },
  {
    name: "a $2,500 deductible takes 11% off",
    facts: { deductibleCents: 250_000 },
    premiumCents: 62_300,
    multipliers: { deductible: "0.89" },
  },
  {
    name: "a $5,000 deductible takes 20% off",
    facts: { deductibleCents: 500_000 },
    premiumCents: 56_000,
    multipliers: { deductible: "0.80" },
  },
  {
    name: "one claim in the look-back adds 20%",
    facts: { claims: claims(2025) },
    premiumCents: 84_000,
    multipliers: { claims: "1.20" },
  },
  {
    name: "two claims in the look-back add 45%",
    facts: { claims: claims(2023, 2027) },
    premiumCents: 101_500,
    multipliers: { claims: "1.45" },
  },
  {
    name: "a claim in 2023 is the oldest the 2027 look-back counts",
    facts: { claims: claims(2023) },
    premiumCents: 84_000,
    multipliers: { claims: "1.20" },
  },
  {
    name: "a claim in 2022 is outside the 2027 look-back",
    facts: { claims: claims(2022) },
    premiumCents: 70_000,
    multipliers: { claims: "1.00" },
  },
  {
    name: "old claims do not count toward the decline",
    facts: { claims: claims(2010, 2019, 2022, 2024, 2026) },
    premiumCents: 101_500,
    multipliers: { claims: "1.45" },
  },
  {
    name: "a premium under $400 is raised to the minimum premium",
    facts: {
      dwellingValueCents: 10_000_000,
      construction: "superior",
      yearBuilt: 2027,
      zipCode: "97301",
      deductibleCents: 500_000,
    },
    // $350 × 0.82 × 0.90 × 0.92 × 0.80 = $190.1088
    premiumCents: 40_000,
    minimumPremiumApplied: true,
  },
  {
    name: "a half cent rounds up, once, at the end",
    // $1,487.50 × 0.90 × 1.10 = $1,472.625
    facts: { dwellingValueCents: 42_500_000, construction: "masonry", yearBuilt: 1987, zipCode: "97214" },
    premiumCents: 147_263,
  },
  {
    name: "rounding once differs from rounding per factor",
    // $1,487.50 × 0.90 × 1.10 × 1.00 × 0.89 × 1.20 = $1,572.7635 → $1,572.76; rounding after each factor would give $1,572.77.
    facts: {
      dwellingValueCents: 42_500_000,
      construction: "masonry",
      yearBuilt: 1987,
      zipCode: "97214",
      deductibleCents: 250_000,
      claims: claims(2021, 2025),
    },
    premiumCents: 157_276,
  },
  {
    name: "every factor at once, at the top of the dwelling value range",
    // $5,250 × 1.00 × 1.45 × 1.18 × 1.12 × 1.45 = $14,587.986
    facts: {
      dwellingValueCents: 150_000_000,
      yearBuilt: 1900,
      zipCode: "97701",
      deductibleCents: 50_000,
      claims: claims(2024, 2026),
    },
    premiumCents: 1_458_799,
  },
  {
    name: "a value that is not a round number keeps its fractions until the end",
    // $333,333 × $3.50 / $1,000 = $1,166.6655; × 0.82 × 1.00 × 0.97 × 0.89 × 1.20 = $1,090.17414…
    facts: {
      dwellingValueCents: 33_333_300,
      construction: "superior",
      yearBuilt: 1999,
      zipCode: "98501",
      deductibleCents: 250_000,
      claims: claims(2024),
    },
    premiumCents: 109_017,
  },
  {
    name: "the bottom of the dwelling value range is written",
    facts: { dwellingValueCents: 10_000_000 },
    premiumCents: 40_000,
    minimumPremiumApplied: true,
  },
];

interface DeclinedCase {
  name: string;
  facts: Partial<PropertyFacts>;
  reasons: RegExp[];
}

const declined: DeclinedCase[] = [
  {
    name: "a dwelling value over $1,500,000",
    facts: { dwellingValueCents: 150_000_100 },
    reasons: [/\$1,500,001 is above/],
  },
  { name: "a dwelling value under $100,000", facts: { dwellingValueCents: 9_999_900 }, reasons: [/\$99,999 is below/] },
  {
    name: "three claims in the look-back",
    facts: { claims: claims(2023, 2025, 2027) },
    reasons: [/3 claims in the last five years \(2023–2027/],
  },
  { name: "a claim in the future", facts: { claims: claims(2028) }, reasons: [/claim in 2028 .* is in the future/] },
  { name: "a year built in the future", facts: { yearBuilt: 2028 }, reasons: [/built in 2028: it is 2027 now/] },
  { name: "a year built before 1800", facts: { yearBuilt: 1799 }, reasons: [/1799 is before 1800/] },
  {
    name: "a ZIP code that is not 5 digits",
    facts: { zipCode: "9720" },
    reasons: [/"9720" is not a 5-digit ZIP code/],
  },
  {
    name: "a ZIP code outside the service area",
    facts: { zipCode: "10001" },
    reasons: [/10001 is outside our service area/],
  },
  {
    name: "a ZIP prefix with no territory inside the service states",
    facts: { zipCode: "98700" },
    reasons: [/98700 is outside our service area/],
  },
  {
    name: "a deductible that is not offered",
    facts: { deductibleCents: 75_000 },
    reasons: [/\$750 deductible is not offered/],
  },
  {
    name: "a construction class that is not in the table",
    facts: { construction: "adobe" as PropertyFacts["construction"] },
    reasons: [/"adobe" is not a construction class/],
  },
  {
    name: "every problem at once, each with its reason",
    facts: {
      dwellingValueCents: 1,
      yearBuilt: 3000,
      zipCode: "1",
      deductibleCents: 1,
      claims: claims(2024, 2025, 2026),
    },
    reasons: [/is below/, /built in 3000/, /"1" is not a 5-digit/, /\$0\.01 deductible/, /3 claims/],
  },
];

describe("rateHomePolicy: premiums", () => {
  for (const example of rated) {
    test(example.name, () => {
      const result = rateHomePolicy({ ...BASELINE, ...example.facts }, RATING_YEAR);
      assert.ok(result.eligible, `declined: ${result.eligible ? "" : result.reasons.join(" ")}`);
      assert.equal(result.premiumCents, example.premiumCents);
      assert.equal(result.minimumPremiumApplied, example.minimumPremiumApplied ?? false);
      assert.equal(result.ratingYear, RATING_YEAR);
      const multipliers = Object.fromEntries(result.factors.map((factor) => [factor.factor, factor.multiplier]));
      for (const [factor, multiplier] of Object.entries(example.multipliers ?? {}))
        assert.equal(multipliers[factor], multiplier, factor);
    });
  }
});

describe("rateHomePolicy: ineligible homes", () => {
  for (const example of declined) {
    test(`declines ${example.name}, saying why`, () => {
      const result = rateHomePolicy({ ...BASELINE, ...example.facts }, RATING_YEAR);
      assert.ok(!result.eligible, "the home was rated");
      assert.equal(result.reasons.length, example.reasons.length, result.reasons.join(" | "));
      example.reasons.forEach((reason, index) => assert.match(result.reasons[index]!, reason));
    });
  }
});

describe("rateHomePolicy: the rating year", () => {
  test("the same facts are a band older and a claim lighter a year later", () => {
    const facts = { ...BASELINE, yearBuilt: 1987, claims: claims(2023) };
    const now = rateHomePolicy(facts, 2027);
    const later = rateHomePolicy(facts, 2028);
    assert.ok(now.eligible && later.eligible);
    assert.equal(now.premiumCents, 92_400); // $700 × 1.10 × 1.20
    assert.equal(later.premiumCents, 87_500); // $700 × 1.25 × 1.00
  });

  test("the factors name the fact each multiplier was looked up by", () => {
    const result = rateHomePolicy(
      { ...BASELINE, construction: "masonry", yearBuilt: 1987, zipCode: "97214", claims: claims(2021, 2025) },
      2027,
    );
    assert.ok(result.eligible);
    assert.deepEqual(result.factors, [
      { factor: "construction", basis: "masonry", multiplier: "0.90" },
      { factor: "age", basis: "built 1987, 26–40 years", multiplier: "1.10" },
      { factor: "territory", basis: "T1 Portland metro", multiplier: "1.00" },
      { factor: "deductible", basis: "$1,000", multiplier: "1.00" },
      { factor: "claims", basis: "1 claim in 2023–2027", multiplier: "1.20" },
    ]);
  });
});

describe("constructionClassOf: a homeowner's words to a construction class", () => {
  const classes: [string, string][] = [
    ["Brick.", "masonry"],
    ["wood frame", "frame"],
    ["Logs", "frame"],
    ["cinder blocks", "masonry"],
    ["concrete block", "masonry"],
    ["poured concrete", "superior"],
    ["Fire-resistive steel", "superior"],
  ];
  for (const [words, construction] of classes) {
    test(`"${words}" is ${construction}`, () => assert.deepEqual(constructionClassOf(words), { construction }));
  }

  test("words that name no class give the classes that exist", () => {
    const match = constructionClassOf("straw bales");
    assert.ok("problem" in match);
    assert.match(match.problem, /"straw bales" is not a construction we rate.*frame .*masonry .*superior/);
  });

  test("words that name two classes are not guessed", () => {
    const match = constructionClassOf("brick and wood");
    assert.ok("problem" in match);
    assert.match(match.problem, /more than one construction \(masonry and frame\)/);
  });
});
