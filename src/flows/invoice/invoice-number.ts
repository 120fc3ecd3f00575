import { createHash } from "node:crypto";
import type { LineItem } from "./line-item.ts";

/**
 * `INV-20270715-3F9A0C`: the issue date on the flow's clock, then the first 6 hex digits of a
 * SHA-256 of the invoice's content. The engine keeps no counter shared by sessions, so the content
 * stands in for a sequence number: two different invoices of one day get different numbers, and the
 * same invoice issued again on that day gets the same one. A pinned clock makes it fully reproducible.
 */
export function invoiceNumber(
  issuedOn: string,
  customer: { name: string; email: string },
  items: readonly LineItem[],
): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(issuedOn)) throw new RangeError(`issuedOn "${issuedOn}" is not YYYY-MM-DD`);
  const content = JSON.stringify({
    customer: [customer.name, customer.email],
    items: items.map((item) => [item.description, item.quantity, item.unitCents, item.taxRateBasisPoints]),
  });
  const digest = createHash("sha256").update(content).digest("hex").slice(0, 6).toUpperCase();
  return `INV-${issuedOn.replaceAll("-", "")}-${digest}`;
}
