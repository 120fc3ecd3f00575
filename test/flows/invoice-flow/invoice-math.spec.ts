import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { divideRoundingHalfAwayFromZero, invoiceTotals, lineAmounts } from "../../../src/flows/invoice/invoice-math.ts";

describe("divideRoundingHalfAwayFromZero", () => {
  test("rounds to the nearest integer and halves up, never to even", () => {
    const cases: [bigint, bigint, bigint][] = [
      [0n, 10n, 0n],
      [4n, 10n, 0n],
      [5n, 10n, 1n],
      [15n, 10n, 2n],
      [25n, 10n, 3n],
      [35n, 10n, 4n],
      [14_999n, 10_000n, 1n],
      [15_000n, 10_000n, 2n],
      [15_001n, 10_000n, 2n],
      [20_000n, 10_000n, 2n],
    ];
    for (const [numerator, denominator, expected] of cases) {
      assert.equal(divideRoundingHalfAwayFromZero(numerator, denominator), expected, `${numerator}/${denominator}`);
    }
  });

  test("refuses a negative numerator or a denominator that is not positive", () => {
    assert.throws(() => divideRoundingHalfAwayFromZero(-5n, 10n), RangeError);
    assert.throws(() => divideRoundingHalfAwayFromZero(5n, 0n), RangeError);
  });
});

describe("lineAmounts", () => {
  test("net is quantity × unit price, tax the exact tax rounded once, total their sum", () => {
    // 3 × $12.50 = $37.50; 8.25% of it is $3.09375, rounded down to $3.09.
    assert.deepStrictEqual(lineAmounts(3, 1250, 825), { netCents: 3750, taxCents: 309, totalCents: 4059 });
    // 7 × $1.50 = $10.50; 9.5% of it is 99.75 cents.
    assert.deepStrictEqual(lineAmounts(7, 150, 950), { netCents: 1050, taxCents: 100, totalCents: 1150 });
  });

  test("an exact half cent of tax rounds up", () => {
    // 10 × $0.25 at 5% is 12.5 cents; 1 × $0.10 at 5% is half a cent; 1 × $0.03 at 50% is 1.5 cents.
    assert.equal(lineAmounts(10, 25, 500).taxCents, 13);
    assert.equal(lineAmounts(1, 10, 500).taxCents, 1);
    assert.equal(lineAmounts(1, 3, 5000).taxCents, 2);
    // Just under a half rounds down: 1 × $0.09 at 5% is 0.45 cents.
    assert.equal(lineAmounts(1, 9, 500).taxCents, 0);
  });

  test("0% has no tax and 100% doubles the line", () => {
    assert.deepStrictEqual(lineAmounts(1, 129999, 0), { netCents: 129999, taxCents: 0, totalCents: 129999 });
    assert.deepStrictEqual(lineAmounts(2, 999, 10_000), { netCents: 1998, taxCents: 1998, totalCents: 3996 });
  });

  test("a product past 2^53 still rounds exactly where float math would lose the half cent", () => {
    // 97354 × 85700500 × 9265 ends in 5000: the tax is exactly 7730054920940.5 cents, so it rounds up.
    // Math.round(97354 * 85700500 * 9265 / 10000) gives 7730054920940.
    assert.equal(lineAmounts(97_354, 85_700_500, 9265).taxCents, 7_730_054_920_941);
  });
});

describe("invoiceTotals", () => {
  test("subtotal, tax and total are the sums of the lines' net, tax and total", () => {
    const lines = [lineAmounts(1, 129999, 0), lineAmounts(10, 25, 500), lineAmounts(5, 1250, 825)];
    assert.deepStrictEqual(invoiceTotals(lines), { subtotalCents: 136499, taxCents: 529, totalCents: 137028 });
  });

  test("tax is the sum of each line's rounded tax, not the rounded sum of exact taxes", () => {
    // Two lines of half a cent each: each rounds to 1 cent, so the invoice's tax is 2 cents, not 1.
    const half = lineAmounts(1, 10, 500);
    assert.deepStrictEqual(invoiceTotals([half, half]), { subtotalCents: 20, taxCents: 2, totalCents: 22 });
  });

  test("an invoice with no lines comes to zero", () => {
    assert.deepStrictEqual(invoiceTotals([]), { subtotalCents: 0, taxCents: 0, totalCents: 0 });
  });
});
