import { Step, tool, stay, advance, complete, type StepContext } from "../../engine/index.ts";
import type { InvoiceFlowTypes } from "./invoice-flow.ts";
import { invoiceNumber } from "./invoice-number.ts";
import { invoiceOf, type ConfirmState } from "./invoice-of.ts";
import { describeInvoice } from "./describe-invoice.ts";
import { formatMoney } from "./money.ts";
import { readConfirmation } from "./read-confirmation.ts";

/** Days from issue to due date: net 30. */
const PAYMENT_TERM_DAYS = 30;

export class ConfirmStep extends Step<ConfirmState, InvoiceFlowTypes> {
  systemPrompt(context: StepContext<ConfirmState, InvoiceFlowTypes>): string {
    return (
      "Show the user the invoice summary below and ask whether to issue it. " +
      "When the user answers, call answer_confirmation with their words: yes issues the invoice, no goes back to the line items. " +
      "Never change or recompute the amounts. " +
      `Summary: ${describeInvoice(invoiceOf(context.stateOf))}`
    );
  }

  @tool({
    name: "answer_confirmation",
    description:
      "Pass the user's answer to the summary in their words: yes issues the invoice, no goes back to change the items.",
    parameters: {
      type: "object",
      properties: { answer: { type: "string", minLength: 1, maxLength: 200 } },
      required: ["answer"],
      additionalProperties: false,
    },
  })
  answerConfirmation(args: { answer: string }, context: StepContext<ConfirmState, InvoiceFlowTypes>) {
    const decision = readConfirmation(args.answer);
    if (decision === undefined) {
      return stay(
        `"${args.answer.trim()}" is neither yes nor no. Nothing was issued. ` +
          `Ask the user to answer yes to issue the invoice, or no to change the items.`,
      );
    }
    if (decision === "no") {
      context.state.changesRequested = (context.state.changesRequested ?? 0) + 1;
      return advance("LineItemsStep", "The user wants to change the items; going back to the line items.");
    }
    const invoice = invoiceOf(context.stateOf);
    // finish_items refuses an empty invoice and CustomerStep comes first, so this is a bug, not input.
    if (!invoice.customer || invoice.items.length === 0)
      throw new Error("ConfirmStep was reached without a customer or line items");
    const now = context.now();
    const issuedOn = now.format("YYYY-MM-DD");
    const dueOn = now.clone().add(PAYMENT_TERM_DAYS, "days").format("YYYY-MM-DD");
    const number = invoiceNumber(issuedOn, invoice.customer, invoice.items);
    Object.assign(context.state, { invoiceNumber: number, issuedOn, dueOn });
    return complete(
      `Issued invoice ${number} to ${invoice.customer.name} on ${issuedOn}, due ${dueOn} (net ${PAYMENT_TERM_DAYS}): ` +
        `total ${formatMoney(invoice.totals.totalCents)}. ` +
        "Tell the user the invoice number, the total and the due date, and close the conversation.",
    );
  }
}
