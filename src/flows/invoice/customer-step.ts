import { Step, tool, stay, advance, characterProblem, type StepContext } from "../../engine/index.ts";
import { normalizeEmail } from "./normalize-email.ts";
import type { InvoiceFlowTypes } from "./invoice-flow.ts";
import type { CustomerState } from "./invoice-of.ts";

export class CustomerStep extends Step<CustomerState, InvoiceFlowTypes> {
  systemPrompt(): string {
    return (
      "You open a new invoice by collecting the customer: their name and email address. " +
      "When the user has given both, call save_customer with them, the name exactly as the user wrote it. " +
      "If the tool refuses, tell the user why and ask again. Ask for nothing else yet."
    );
  }

  @tool({
    name: "save_customer",
    description: "Save the invoice's customer: their name and email address.",
    parameters: {
      type: "object",
      properties: {
        name: { type: "string", minLength: 1, maxLength: 120 },
        email: { type: "string", minLength: 1, maxLength: 254 },
      },
      required: ["name", "email"],
      additionalProperties: false,
    },
  })
  saveCustomer(args: { name: string; email: string }, context: StepContext<CustomerState, InvoiceFlowTypes>) {
    const name = args.name.trim().replace(/\s+/g, " ");
    if (name === "") return stay("The customer's name is blank. Ask the user for the customer's name.");
    const unsavable =
      characterProblem(name, "The customer's name") ?? characterProblem(args.email.trim(), "The email address");
    if (unsavable) return stay(unsavable);
    const email = normalizeEmail(args.email);
    if (!email) {
      return stay(
        `"${args.email.trim()}" is not an email address (it needs a name, an @ and a domain, like ap@acme.example). ` +
          "Ask the user for the customer's email address again.",
      );
    }
    context.state.name = name;
    context.state.email = email;
    return advance("LineItemsStep", `Saved the customer ${name} (${email}).`);
  }
}
