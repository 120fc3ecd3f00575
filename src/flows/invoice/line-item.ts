import { lineAmounts, type LineAmounts } from "./invoice-math.ts";
import { formatMoney, parseMoney } from "./money.ts";
import { parseTaxRate } from "./tax-rate.ts";

/** One line of the invoice as state stores it: integers only, its amounts computed once. */
export interface LineItem extends LineAmounts {
  description: string;
  quantity: number;
  unitCents: number;
  taxRateBasisPoints: number;
}

/** The line as the user (or the model, in the user's words) gave it. */
export interface LineItemInput {
  description: string;
  quantity: string;
  unit_price: string;
  tax_rate: string;
}

// With these bounds a line's net is under 10^12 cents, so 100 lines stay far below 2^53.
const MAX_QUANTITY = 100_000;
const MAX_UNIT_CENTS = 100_000_000;

/** Checks every part of a line and computes its amounts; lists every problem at once. */
export function parseLineItem(input: LineItemInput): { ok: true; item: LineItem } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  // One line of text: a line break would split the line in every rendering but CSV.
  const description = input.description.trim().replace(/\s+/g, " ");
  if (description === "") problems.push("the description is blank");

  const quantityText = input.quantity.trim();
  const quantity = /^\d+$/.test(quantityText) ? Number(quantityText) : NaN;
  if (!Number.isInteger(quantity)) problems.push(`the quantity "${quantityText}" is not a whole number`);
  else if (quantity < 1 || quantity > MAX_QUANTITY)
    problems.push(`the quantity ${quantity} is not between 1 and ${MAX_QUANTITY.toLocaleString("en-US")}`);

  const price = parseMoney(input.unit_price);
  if (!price.ok) problems.push(`the unit price ${price.problem}`);
  else if (price.cents > MAX_UNIT_CENTS)
    problems.push(`the unit price ${formatMoney(price.cents)} is over ${formatMoney(MAX_UNIT_CENTS)}`);

  const rate = parseTaxRate(input.tax_rate);
  if (!rate.ok) problems.push(rate.problem);

  if (problems.length || !price.ok || !rate.ok) return { ok: false, problems };
  return {
    ok: true,
    item: {
      description,
      quantity,
      unitCents: price.cents,
      taxRateBasisPoints: rate.basisPoints,
      ...lineAmounts(quantity, price.cents, rate.basisPoints),
    },
  };
}
