import type { InvoiceTotals } from "./invoice-math.ts";
import type { Invoice } from "./invoice-of.ts";
import type { LineItem } from "./line-item.ts";
import { formatMoney } from "./money.ts";
import { formatTaxRate } from "./tax-rate.ts";

/** "line 1, widgets: 3 × $12.50 = $37.50 + $3.09 tax (8.25%) = $40.59" */
export function describeLine(item: LineItem, index: number): string {
  return (
    `line ${index + 1}, ${item.description}: ${item.quantity} × ${formatMoney(item.unitCents)} = ${formatMoney(item.netCents)}` +
    ` + ${formatMoney(item.taxCents)} tax (${formatTaxRate(item.taxRateBasisPoints)}) = ${formatMoney(item.totalCents)}`
  );
}

/** "subtotal $37.50, tax $3.09, total $40.59" */
export function describeTotals(totals: InvoiceTotals): string {
  return `subtotal ${formatMoney(totals.subtotalCents)}, tax ${formatMoney(totals.taxCents)}, total ${formatMoney(totals.totalCents)}`;
}

/** The lines, "none" when there are none, joined with "; ". */
export function describeLines(items: readonly LineItem[]): string {
  return items.length ? items.map(describeLine).join("; ") : "none";
}

/** "Acme, Inc. (ap@acme.example)" */
export function describeCustomer(invoice: Invoice): string {
  return invoice.customer ? `${invoice.customer.name} (${invoice.customer.email})` : "no customer yet";
}

/** The whole invoice in one paragraph, as the confirmation shows it. */
export function describeInvoice(invoice: Invoice): string {
  return `Invoice for ${describeCustomer(invoice)}: ${describeLines(invoice.items)}. Totals: ${describeTotals(invoice.totals)}.`;
}
