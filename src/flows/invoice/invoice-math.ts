/** What one line of the invoice comes to, in cents. */
export interface LineAmounts {
  netCents: number;
  taxCents: number;
  totalCents: number;
}

export interface InvoiceTotals {
  subtotalCents: number;
  taxCents: number;
  totalCents: number;
}

/**
 * `numerator / denominator` rounded to the nearest integer, halves away from zero (2.5 → 3,
 * 3.5 → 4: never to even). Both are non-negative here, since amounts and rates refuse negatives,
 * so away from zero is up.
 */
export function divideRoundingHalfAwayFromZero(numerator: bigint, denominator: bigint): bigint {
  if (numerator < 0n || denominator <= 0n) throw new RangeError(`cannot divide ${numerator} by ${denominator} here`);
  return (numerator * 2n + denominator) / (denominator * 2n);
}

/**
 * The rounding rule: tax is computed per line, exactly, as quantity × unit price × rate, and only
 * then rounded once to a whole cent, halves away from zero. The invoice's tax is the sum of the
 * rounded line taxes (not the rounded sum of exact taxes), so every printed line adds up and the
 * totals are the sums of the columns; the price is that two lines may each round a half cent up.
 * The product is a bigint: quantity × cents × basis points can pass 2^53 before the division.
 */
export function lineAmounts(quantity: number, unitCents: number, taxRateBasisPoints: number): LineAmounts {
  const netCents = quantity * unitCents;
  const exactTimes10000 = BigInt(quantity) * BigInt(unitCents) * BigInt(taxRateBasisPoints);
  const taxCents = Number(divideRoundingHalfAwayFromZero(exactTimes10000, 10_000n));
  return { netCents, taxCents, totalCents: netCents + taxCents };
}

/** Subtotal, tax and total: the sums of the lines' net, tax and total. */
export function invoiceTotals(lines: readonly LineAmounts[]): InvoiceTotals {
  let subtotalCents = 0;
  let taxCents = 0;
  for (const line of lines) {
    subtotalCents += line.netCents;
    taxCents += line.taxCents;
  }
  return { subtotalCents, taxCents, totalCents: subtotalCents + taxCents };
}
