import type { StepContext } from "../../engine/index.ts";
import type { InvoiceFlowTypes } from "./invoice-flow.ts";
import { invoiceTotals, type InvoiceTotals } from "./invoice-math.ts";
import type { LineItem } from "./line-item.ts";

export interface CustomerState {
  name?: string;
  email?: string;
}

/** The lines and, kept in step with them, their totals. */
export interface LineItemsState extends Partial<InvoiceTotals> {
  items?: LineItem[];
}

export interface ConfirmState {
  /** How often the user sent the summary back to change the items. */
  changesRequested?: number;
  invoiceNumber?: string;
  /** YYYY-MM-DD on the flow's clock. */
  issuedOn?: string;
  dueOn?: string;
}

/** The invoice as the three steps' states describe it, at any point of the flow. */
export interface Invoice {
  customer: { name: string; email: string } | undefined;
  items: readonly LineItem[];
  totals: InvoiceTotals;
  issued: { invoiceNumber: string; issuedOn: string; dueOn: string } | undefined;
}

/** How `invoiceOf` reads InvoiceFlow's states: a step context's `stateOf`. */
export type InvoiceStates = StepContext<object, InvoiceFlowTypes>["stateOf"];

/** Reads the invoice from the steps' states. */
export function invoiceOf(stateOf: InvoiceStates): Invoice {
  const customer = stateOf("CustomerStep");
  const items = stateOf("LineItemsStep").items ?? [];
  const confirm = stateOf("ConfirmStep");
  return {
    customer:
      customer.name !== undefined && customer.email !== undefined
        ? { name: customer.name, email: customer.email }
        : undefined,
    items,
    totals: invoiceTotals(items),
    issued:
      confirm.invoiceNumber !== undefined && confirm.issuedOn !== undefined && confirm.dueOn !== undefined
        ? { invoiceNumber: confirm.invoiceNumber, issuedOn: confirm.issuedOn, dueOn: confirm.dueOn }
        : undefined,
  };
}
