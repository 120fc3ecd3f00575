import { Step, tool, stay, advance, characterProblem, type StepContext } from "../../engine/index.ts";
import type { InvoiceFlowTypes } from "./invoice-flow.ts";
import { invoiceTotals } from "./invoice-math.ts";
import { invoiceOf, type LineItemsState } from "./invoice-of.ts";
import { describeCustomer, describeLine, describeLines, describeTotals } from "./describe-invoice.ts";
import { parseLineItem, type LineItem, type LineItemInput } from "./line-item.ts";
import { formatMoney } from "./money.ts";

const MAX_LINES = 100;

/** Stores the lines with their totals, so the state alone shows what the invoice comes to. */
function saveLines(state: LineItemsState, items: LineItem[]): string {
  const totals = invoiceTotals(items);
  Object.assign(state, { items, ...totals });
  return `Running total: ${describeTotals(totals)}.`;
}

export class LineItemsStep extends Step<LineItemsState, InvoiceFlowTypes> {
  systemPrompt(context: StepContext<LineItemsState, InvoiceFlowTypes>): string {
    const invoice = invoiceOf(context.stateOf);
    return (
      `You are adding line items to the invoice for ${describeCustomer(invoice)}, one item per user message. ` +
      "An item has a description, a quantity (a whole number), a unit price and a tax rate in percent. " +
      "For each item call add_line_item with the user's own words for each part, " +
      'e.g. quantity "3", unit_price "$12.50", tax_rate "8.25%": ' +
      "the tool checks them and does all the arithmetic, so never compute amounts yourself. " +
      "After each call tell the user what the tool reports, including the running total. " +
      "To drop an item call remove_line_item with its line number. When the user says they are done, call finish_items. " +
      `Items so far: ${describeLines(invoice.items)}. Running total: ${describeTotals(invoice.totals)}.`
    );
  }

  @tool({
    name: "add_line_item",
    description:
      "Add one line item to the invoice. Pass each part in the user's words; the tool parses and checks them and computes the amounts.",
    parameters: {
      type: "object",
      properties: {
        description: { type: "string", minLength: 1, maxLength: 200, description: "What is sold, e.g. widgets" },
        quantity: { type: "string", minLength: 1, maxLength: 20, description: "A whole number, e.g. 3" },
        unit_price: {
          type: "string",
          minLength: 1,
          maxLength: 30,
          description: "The price of one, e.g. $12.50 or 1,299.99",
        },
        tax_rate: {
          type: "string",
          minLength: 1,
          maxLength: 20,
          description: "In percent, at most 2 decimals, e.g. 8.25%",
        },
      },
      required: ["description", "quantity", "unit_price", "tax_rate"],
      additionalProperties: false,
    },
  })
  addLineItem(args: LineItemInput, context: StepContext<LineItemsState, InvoiceFlowTypes>) {
    const items = context.state.items ?? [];
    const unchanged = `The running total is still ${describeTotals(invoiceTotals(items))}.`;
    if (items.length >= MAX_LINES) {
      return stay(
        `Not added: an invoice holds at most ${MAX_LINES} lines. ${unchanged} Ask the user to finish this invoice or remove a line.`,
      );
    }
    const parsed = parseLineItem(args);
    if (!parsed.ok)
      return stay(`Not added: ${parsed.problems.join("; ")}. ${unchanged} Ask the user to send the item again.`);
    const unsavable = characterProblem(parsed.item.description, "The description");
    if (unsavable) return stay(`Not added: ${unsavable} ${unchanged}`);
    const next = [...items, parsed.item];
    const running = saveLines(context.state, next);
    return stay(
      `Added ${describeLine(parsed.item, next.length - 1)}. ${running} Ask the user for the next item, or to say done.`,
    );
  }

  @tool({
    name: "remove_line_item",
    description: "Remove one line item by its line number; the lines after it move up by one.",
    parameters: {
      type: "object",
      properties: { line: { type: "integer", minimum: 1, description: "The line number, from 1" } },
      required: ["line"],
      additionalProperties: false,
    },
  })
  removeLineItem(args: { line: number }, context: StepContext<LineItemsState, InvoiceFlowTypes>) {
    const items = context.state.items ?? [];
    const removed = items[args.line - 1];
    if (!removed) {
      const lines = items.length === 0 ? "it has no lines yet" : `its lines are 1 to ${items.length}`;
      return stay(
        `There is no line ${args.line} on the invoice; ${lines}. Nothing was removed. Ask the user which line to remove.`,
      );
    }
    const running = saveLines(
      context.state,
      items.filter((_, index) => index !== args.line - 1),
    );
    return stay(
      `Removed line ${args.line} (${removed.description}); the lines after it moved up. ` +
        `${running} Ask the user for the next item, or to say done.`,
    );
  }

  @tool({
    name: "finish_items",
    description: "The user has no more items: move on to confirming the invoice.",
    parameters: { type: "object", properties: {}, additionalProperties: false },
  })
  finishItems(_args: Record<string, never>, context: StepContext<LineItemsState, InvoiceFlowTypes>) {
    const items = context.state.items ?? [];
    if (items.length === 0)
      return stay("There are no line items yet, so there is nothing to confirm. Ask the user for the first item.");
    const { totalCents } = invoiceTotals(items);
    return advance(
      "ConfirmStep",
      `The items are complete: ${items.length} lines, total ${formatMoney(totalCents)}. Moving on to the confirmation.`,
    );
  }
}
