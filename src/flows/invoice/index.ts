import type { FlowEntry } from "../../engine/index.ts";
import { InvoiceFlow } from "./invoice-flow.ts";
import { invoiceFlowScripts } from "./invoice-flow-scripts.ts";

/** InvoiceFlow as an app registers it, with its scripted model. */
export const invoiceFlowEntry: FlowEntry = Object.freeze({ flow: InvoiceFlow, scripts: invoiceFlowScripts });

export { InvoiceFlow, invoiceFlowScripts };
export { renderInvoiceCsv } from "./render-invoice-csv.ts";
