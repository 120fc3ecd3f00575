import type { Renderer } from "../../engine/index.ts";
import { csvDocument } from "./csv-document.ts";
import { invoiceOf, type InvoiceStates } from "./invoice-of.ts";
import { formatAmount } from "./money.ts";
import { formatTaxRate } from "./tax-rate.ts";

export const INVOICE_CSV_COLUMNS = [
  "invoice",
  "customer",
  "kind",
  "line",
  "description",
  "quantity",
  "unit_price",
  "tax_rate",
  "net",
  "tax",
  "total",
] as const;

/**
 * The invoice as CSV: a header, one `item` row per line, then one `total` row whose net, tax and
 * total are the invoice's subtotal, tax and total. Amounts are plain decimals ("1299.99"). Before
 * the invoice is issued the `invoice` column is empty: the rows are then a draft.
 */
export const renderInvoiceCsv: Renderer = ({ steps }) => {
  // A renderer gets the session's steps untyped; they hold what the steps' types say.
  const invoice = invoiceOf(((step: string) => steps[step] ?? {}) as InvoiceStates);
  const number = invoice.issued?.invoiceNumber ?? "";
  const customer = invoice.customer?.name ?? "";
  const items = invoice.items.map((item, index) => [
    number,
    customer,
    "item",
    String(index + 1),
    item.description,
    String(item.quantity),
    formatAmount(item.unitCents),
    formatTaxRate(item.taxRateBasisPoints),
    formatAmount(item.netCents),
    formatAmount(item.taxCents),
    formatAmount(item.totalCents),
  ]);
  const { subtotalCents, taxCents, totalCents } = invoice.totals;
  const total = [
    number,
    customer,
    "total",
    "",
    "",
    "",
    "",
    "",
    formatAmount(subtotalCents),
    formatAmount(taxCents),
    formatAmount(totalCents),
  ];
  return csvDocument([INVOICE_CSV_COLUMNS, ...items, total]);
};
