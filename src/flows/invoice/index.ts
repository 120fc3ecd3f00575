import type { FlowEntry } from "../../engine/index.ts";
import { InvoiceFlow } from "./invoice-flow.ts";
import { invoiceFlowScripts } from "./invoice-flow-scripts.ts";
import { invoiceFlowUser } from "./invoice-flow-user.ts";

/** InvoiceFlow as an app registers it, with its scripted model and its scripted user. */
export const invoiceFlowEntry: FlowEntry = Object.freeze({
  flow: InvoiceFlow,
  scripts: invoiceFlowScripts,
  user: invoiceFlowUser,
});

export { InvoiceFlow, invoiceFlowScripts, invoiceFlowUser };
export { renderInvoiceCsv } from "./render-invoice-csv.ts";
