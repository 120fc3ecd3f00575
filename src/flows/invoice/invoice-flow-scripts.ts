import {
  scriptedText,
  scriptedToolCalls,
  type ModelReply,
  type Script,
  type ScriptRequest,
  type Scripts,
} from "../../engine/index.ts";

// The model's part is only to split the user's words; every number is parsed and computed by the tools.
const CUSTOMER = /^\s*(.+?)\s*,\s*([^\s,]+)\s*$/;
const ITEM = /^\s*(\S+)\s+(.+?)\s+at\s+(\S+)\s+(?:each\s+)?with\s+(\S+)\s+tax\s*$/i;
const REMOVE = /^\s*(?:remove|delete|drop)\s+(?:line|item)\s*#?(\d+)\s*$/i;
const DONE = /^\s*(?:done|that's all|that is all|finished|no more items)\s*[.!]?\s*$/i;
const NEXT =
  "Add the next item (like: 3 widgets at $12.50 with 8.25% tax), remove one (like: remove line 2), or say done.";

/** What a tool reported, without its instruction to the model. */
function facts(content: string): string {
  return content.replace(/ Ask the user.*$/s, "");
}

function customer({ latest }: ScriptRequest): ModelReply | undefined {
  if (latest?.role === "user") {
    const customer = CUSTOMER.exec(latest.content);
    if (customer)
      return scriptedToolCalls([{ name: "save_customer", args: { name: customer[1], email: customer[2] } }]);
    return scriptedText(
      "Happy to help with an invoice. Who is it for? Send the customer's name and email, like: Acme, Inc., ap@acme.example",
    );
  }
  if (latest?.role === "tool") {
    const said = facts(latest.content);
    return scriptedText(
      `Sorry, ${said[0]!.toLowerCase()}${said.slice(1)} Please send the customer's name and email again.`,
    );
  }
  return undefined;
}

function lineItems({ system, latest }: ScriptRequest): ModelReply | undefined {
  if (latest?.role === "handoff" && latest.from === "CustomerStep") {
    const customer = /^Saved the customer (.+)\.$/.exec(latest.content)?.[1];
    return scriptedText(
      `Invoicing ${customer}. ` +
        `Send the line items one at a time, like: 3 widgets at $12.50 with 8.25% tax. Say done when there are no more.`,
    );
  }
  // Back from the summary, handed the turn by ConfirmStep: the items as they stand are the prompt's.
  if (latest?.role === "handoff" && latest.from === "ConfirmStep") {
    const items = /Items so far: (.+?)\. Running total: (.+?)\.$/s.exec(system);
    return scriptedText(`Sure, let's change the items. So far: ${items?.[1]}. Running total: ${items?.[2]}. ${NEXT}`);
  }
  if (latest?.role === "user") {
    if (DONE.test(latest.content)) return scriptedToolCalls([{ name: "finish_items", args: {} }]);
    const remove = REMOVE.exec(latest.content);
    if (remove) return scriptedToolCalls([{ name: "remove_line_item", args: { line: Number(remove[1]) } }]);
    const item = ITEM.exec(latest.content);
    if (item) {
      return scriptedToolCalls([
        {
          name: "add_line_item",
          args: { quantity: item[1], description: item[2], unit_price: item[3], tax_rate: item[4] },
        },
      ]);
    }
    return scriptedText(`I didn't catch an item there. ${NEXT}`);
  }
  if (latest?.role === "tool" && latest.content.startsWith("Not added: ")) {
    return scriptedText(
      `Sorry, I couldn't add that: ${facts(latest.content.slice("Not added: ".length))} ` +
        `Please send the item again, like: 3 widgets at $12.50 with 8.25% tax.`,
    );
  }
  if (latest?.role === "tool") return scriptedText(`${facts(latest.content)} ${NEXT}`);
  return undefined;
}

function confirm({ system, latest }: ScriptRequest): ModelReply | undefined {
  // Handed the turn by LineItemsStep, for the first time or again after the user changed the items.
  if (latest?.role === "handoff") {
    const summary = /Summary: (.+)$/s.exec(system)?.[1];
    return scriptedText(`Here is the invoice. ${summary} Shall I issue it? Answer yes or no.`);
  }
  if (latest?.role === "user")
    return scriptedToolCalls([{ name: "answer_confirmation", args: { answer: latest.content } }]);
  const issued =
    latest?.role === "tool"
      ? /^Issued invoice (\S+) to (.+?) on \S+, due (\S+) \(net \d+\): total (\S+)\. /.exec(latest.content)
      : null;
  if (issued)
    return scriptedText(
      `Done: invoice ${issued[1]} for ${issued[2]} is issued, total ${issued[4]}, due ${issued[3]}. Thank you!`,
    );
  if (latest?.role === "tool" && latest.content.includes("is neither yes nor no")) {
    return scriptedText(`${facts(latest.content)} Please answer yes to issue the invoice, or no to change the items.`);
  }
  return undefined;
}

/** InvoiceFlow's deterministic model: branches on the step's prompt and the latest message. */
const invoiceFlow: Script = (request) => {
  const { system, latest } = request;
  // The engine refused the tool's arguments (e.g. a 300-character description): ask again, in any step.
  const refused =
    latest?.role === "tool" ? /^Invalid arguments for \w+: (.+?)\. Call it again/.exec(latest.content) : null;
  if (refused) return scriptedText(`Sorry, I couldn't use that (${refused[1]}). Could you say it again?`);
  if (system.includes("collecting the customer")) return customer(request);
  if (system.includes("adding line items to the invoice")) return lineItems(request);
  if (system.includes("ask whether to issue it")) return confirm(request);
  return undefined;
};

export const invoiceFlowScripts: Scripts = Object.freeze({ InvoiceFlow: invoiceFlow });
