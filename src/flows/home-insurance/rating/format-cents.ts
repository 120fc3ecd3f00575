/** `176715` → `"$1,767.15"`; whole dollars drop the cents: `42500000` → `"$425,000"`. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100).toLocaleString("en-US");
  const rest = abs % 100;
  return `${sign}$${dollars}${rest === 0 ? "" : `.${String(rest).padStart(2, "0")}`}`;
}

/** A ten-thousandths multiplier as the two-decimal factor people read: `8900` → `"0.89"`. */
export function formatMultiplier(tenThousandths: number): string {
  return (tenThousandths / 10_000).toFixed(2);
}
