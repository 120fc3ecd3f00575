import { Step, tool, stay, complete, characterProblem, type StepContext } from "../../../engine/index.ts";
import type { AddressCheckTypes } from "./address-check-flow.ts";
import { US_STATES } from "./us-states.ts";

export interface NormalizedAddress {
  street: string;
  city: string;
  state: string;
  zip: string;
}

function titleCase(text: string): string {
  return text
    .trim()
    .replace(/\s+/g, " ")
    .toLowerCase()
    .replace(/\b[a-z]/g, (letter) => letter.toUpperCase());
}

function stateCode(value: string): string | undefined {
  const trimmed = value.trim();
  const upper = trimmed.toUpperCase();
  if (Object.values(US_STATES).includes(upper)) return upper;
  return US_STATES[titleCase(trimmed)];
}

export interface NormalizeAddressState {
  address?: NormalizedAddress;
}

export class NormalizeAddressStep extends Step<NormalizeAddressState, AddressCheckTypes> {
  systemPrompt(): string {
    return "Split the US postal address in the message into street, city, state and ZIP code and call normalize_address.";
  }

  @tool({
    name: "normalize_address",
    description: "Check a US address's parts and save them in normal form.",
    parameters: {
      type: "object",
      properties: {
        street: { type: "string", minLength: 1, maxLength: 200 },
        city: { type: "string", minLength: 1, maxLength: 100 },
        state: { type: "string", minLength: 2, maxLength: 40 },
        zip: { type: "string", minLength: 1, maxLength: 20 },
      },
      required: ["street", "city", "state", "zip"],
      additionalProperties: false,
    },
  })
  normalizeAddress(args: NormalizedAddress, context: StepContext<NormalizeAddressState, AddressCheckTypes>) {
    const zip = args.zip.trim();
    if (!/^\d{5}(-\d{4})?$/.test(zip)) return stay(`The ZIP code "${zip}" is not 5 digits (or ZIP+4).`);
    const state = stateCode(args.state);
    if (!state) return stay(`"${args.state}" is not a US state.`);
    const street = titleCase(args.street).replace(/\b(Nw|Ne|Sw|Se)\b/g, (d) => d.toUpperCase());
    const city = titleCase(args.city);
    const unsavable = characterProblem(street, "The street") ?? characterProblem(city, "The city");
    if (unsavable) return stay(unsavable);
    const address = { street, city, state, zip };
    context.state.address = address;
    return complete("The address is valid and saved.", address);
  }
}
