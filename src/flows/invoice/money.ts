/** A parsed amount in cents, or why the text is not one. */
export type MoneyParse = { ok: true; cents: number } | { ok: false; problem: string };

// Digits with optional thousands separators in groups of three ("1,299"), then at most one fraction.
const AMOUNT = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/;

/**
 * Reads a non-negative US dollar amount such as "12.50", "$1,299.99" or "7" into integer cents,
 * without ever going through a float. Refuses negatives, more than 2 decimals, misplaced thousands
 * separators ("12,50" is ambiguous) and amounts too large to count exactly.
 */
export function parseMoney(input: string): MoneyParse {
  const given = input.trim();
  const refuse = (why: string): MoneyParse => ({ ok: false, problem: `"${given}" ${why}` });
  if (/^[-−(]|^\$\s*[-−(]/.test(given)) return refuse("is negative; amounts must be zero or more");
  const match = AMOUNT.exec(given.replace(/^\$\s*/, ""));
  if (!match) return refuse("is not an amount of money like 12.50 or $1,299.99");
  const fraction = match[2] ?? "";
  if (fraction.length > 2) return refuse("has more than 2 decimals; amounts are in whole cents");
  const cents = BigInt(match[1]!.replaceAll(",", "")) * 100n + BigInt(fraction.padEnd(2, "0"));
  if (cents > BigInt(Number.MAX_SAFE_INTEGER)) return refuse("is too large");
  return { ok: true, cents: Number(cents) };
}

/** 129999 → "1299.99": a plain decimal for machines (CSV). */
export function formatAmount(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0)
    throw new RangeError(`${cents} is not a whole, non-negative number of cents`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

/** 129999 → "$1,299.99": for people. */
export function formatMoney(cents: number): string {
  const [whole, fraction] = formatAmount(cents).split(".");
  return `$${whole!.replace(/\B(?=(\d{3})+$)/g, ",")}.${fraction!}`;
}
