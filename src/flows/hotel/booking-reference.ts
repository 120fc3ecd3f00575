import { createHash } from "node:crypto";

/**
 * `PDX-` and 8 hex digits derived from the stay (dates and hotels, in any order), so the same
 * booking always gets the same reference and a scenario can assert it exactly.
 */
export function bookingReference(hotels: readonly string[], checkIn: string, checkOut: string): string {
  const key = [checkIn, checkOut, ...[...hotels].sort()].join("|");
  return `PDX-${createHash("sha256").update(key).digest("hex").slice(0, 8).toUpperCase()}`;
}
