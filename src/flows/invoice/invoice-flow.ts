import { defineFlow, type FlowTypes } from "../../engine/index.ts";
import { ConfirmStep } from "./confirm-step.ts";
import { CustomerStep } from "./customer-step.ts";
import { LineItemsStep } from "./line-items-step.ts";
import { renderInvoiceCsv } from "./render-invoice-csv.ts";

const steps = { CustomerStep, LineItemsStep, ConfirmStep };

/** InvoiceFlow's step names and states, for its steps' `Step<State, InvoiceFlowTypes>`. */
export interface InvoiceFlowTypes extends FlowTypes<typeof steps> {}

/**
 * The second demo: a customer, line items with a running total, a confirmation, and an issued
 * invoice whose number comes from the flow's clock (`INVOICE_FLOW_CURRENT_DATE` pins it). Money is
 * integer cents throughout; `Accept: text/csv` gets the invoice as CSV.
 */
export const InvoiceFlow = defineFlow<InvoiceFlowTypes>({
  name: "InvoiceFlow",
  description:
    "Collects a customer and line items with a running total, confirms, and issues the invoice (also as text/csv).",
  steps,
  renderers: { "text/csv": renderInvoiceCsv },
});
