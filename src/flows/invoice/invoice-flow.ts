import { defineFlow } from "../../engine/index.ts";
import { ConfirmStep } from "./confirm-step.ts";
import { CustomerStep } from "./customer-step.ts";
import { LineItemsStep } from "./line-items-step.ts";
import { renderInvoiceCsv } from "./render-invoice-csv.ts";

/**
 * The second demo: a customer, line items with a running total, a confirmation, and an issued
 * invoice whose number comes from the flow's clock (`INVOICE_FLOW_CURRENT_DATE` pins it). Money is
 * integer cents throughout; `Accept: text/csv` gets the invoice as CSV.
 */
export const InvoiceFlow = defineFlow({
  name: "InvoiceFlow",
  description: "Collects a customer and line items with a running total, confirms, and issues the invoice (also as text/csv).",
  steps: [CustomerStep, LineItemsStep, ConfirmStep],
  renderers: { "text/csv": renderInvoiceCsv },
});
