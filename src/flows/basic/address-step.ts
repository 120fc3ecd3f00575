import { Step, tool, stay, complete, characterProblem, type StepContext } from "../../engine/index.ts";
import { AddressCheckFlow } from "./address-check/address-check-flow.ts";
import type { NormalizedAddress } from "./address-check/normalize-address-step.ts";
import type { BasicFlowTypes } from "./basic-flow.ts";

export interface AddressState {
  address?: NormalizedAddress;
}

export class AddressStep extends Step<AddressState, BasicFlowTypes> {
  systemPrompt(context: StepContext<AddressState, BasicFlowTypes>): string {
    const weather = Object.entries(context.stateOf("WeatherStep"))
      .map(([key, fahrenheit]) => `${key.slice("city_".length)} ${String(fahrenheit)}°F`)
      .join(", ");
    return (
      `Weather found: ${weather}. Tell the user the weather, then ask for their US postal address ` +
      "and call check_address with it as one line of text."
    );
  }

  @tool({
    name: "check_address",
    description: "Validate and normalise a US postal address given as one line, and save it.",
    parameters: {
      type: "object",
      properties: { address: { type: "string", minLength: 5, maxLength: 300 } },
      required: ["address"],
      additionalProperties: false,
    },
  })
  async checkAddress(args: { address: string }, context: StepContext<AddressState, BasicFlowTypes>) {
    // Refused here, before the AddressCheck child is run with it.
    const unsavable = characterProblem(args.address.trim(), "The address");
    if (unsavable) return stay(unsavable);
    const check = await context.runChild(AddressCheckFlow, args.address);
    if (check.runStatus !== "completed") {
      return stay(`The address could not be validated: ${check.reply} Ask the user for a corrected address.`);
    }
    const address = check.output;
    context.state.address = address;
    return complete(
      `Saved the address ${address.street}, ${address.city}, ${address.state} ${address.zip}. Thank the user; everything is done.`,
    );
  }
}
