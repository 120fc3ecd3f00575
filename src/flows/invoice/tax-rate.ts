/** A tax rate in basis points (8.25% → 825), or why the text is not one. */
export type TaxRateParse = { ok: true; basisPoints: number } | { ok: false; problem: string };

/** 100%: a higher rate is a typing mistake, not a tax. */
const MAX_TAX_RATE_BASIS_POINTS = 10_000;

const PERCENT = /^(\d{1,3})(?:\.(\d+))?\s*%?$/;

/**
 * Reads a tax rate given in percent, with or without the sign ("8.25%", "8.25", "0%"), into whole
 * basis points so the tax can be computed in integers. At most 2 decimals, from 0% to 100%.
 */
export function parseTaxRate(input: string): TaxRateParse {
  const given = input.trim();
  const refuse = (why: string): TaxRateParse => ({ ok: false, problem: `the tax rate "${given}" ${why}` });
  if (/^[-−]/.test(given)) return refuse("is negative");
  const match = PERCENT.exec(given);
  if (!match) return refuse("is not a percentage like 8.25%");
  const fraction = match[2] ?? "";
  if (fraction.length > 2) return refuse("has more than 2 decimals; give it like 8.25%");
  const basisPoints = Number(match[1]) * 100 + Number(fraction.padEnd(2, "0"));
  if (basisPoints > MAX_TAX_RATE_BASIS_POINTS) return refuse("is over 100%");
  return { ok: true, basisPoints };
}

/** 825 → "8.25%", 750 → "7.5%", 800 → "8%". */
export function formatTaxRate(basisPoints: number): string {
  const fraction = String(basisPoints % 100)
    .padStart(2, "0")
    .replace(/0+$/, "");
  return `${Math.floor(basisPoints / 100)}${fraction ? `.${fraction}` : ""}%`;
}
