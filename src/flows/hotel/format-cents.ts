/** 237293 → "$2,372.93"; grouped by hand so the text does not depend on the machine's locale. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const absolute = Math.abs(cents);
  const dollars = String(Math.trunc(absolute / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}$${dollars}.${String(absolute % 100).padStart(2, "0")}`;
}
