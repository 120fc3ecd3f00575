import type { ScriptedUser } from "../../engine/index.ts";
import { finished, personaView, say } from "../persona-view.ts";

// An off-topic user asks this once, where the flow wants an item; it is no item, so the flow asks again.
const OFF_TOPIC = "Quick question first: can you remind me to call my accountant tomorrow?";

/**
 * InvoiceFlow's scripted user: names its `customer` and `email` facts, sends its `items` fact one
 * item at a time (like "3 widgets at $12.50 with 8.25% tax"), says done, and issues the invoice.
 */
export const invoiceFlowUser: ScriptedUser = (request) => {
  const { answer, said, fact } = personaView(request);
  const items = request.user.facts["items"];
  if (answer === "") return say("Hi, I'd like to bill a customer.");
  if (/^Done: invoice \S+ for .+ is issued/.test(answer)) return finished("the invoice is issued");
  if (/Shall I issue it\?/.test(answer)) return say("yes");
  if (/Who is it for\?/.test(answer)) {
    const customer = fact("customer");
    const email = fact("email");
    return say(customer && email ? `${customer}, ${email}` : undefined);
  }
  if (/Send the line items one at a time|Add the next item/.test(answer)) {
    if (request.user.style === "off-topic" && !said(OFF_TOPIC)) return say(OFF_TOPIC);
    if (!Array.isArray(items)) return undefined;
    return say(items.find((item): item is string => typeof item === "string" && !said(item)) ?? "done");
  }
  return undefined;
};
