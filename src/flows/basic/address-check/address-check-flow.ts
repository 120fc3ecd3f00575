import { defineFlow, type FlowTypes } from "../../../engine/index.ts";
import { NormalizeAddressStep, type NormalizedAddress } from "./normalize-address-step.ts";

const steps = { NormalizeAddressStep };

/** AddressCheck completes with the address it normalised as its output. */
export interface AddressCheckTypes extends FlowTypes<typeof steps, { output: NormalizedAddress }> {}

/** A child flow of BasicFlow's AddressStep: reads a one-line address and saves it normalised. */
export const AddressCheckFlow = defineFlow<AddressCheckTypes>({
  name: "AddressCheck",
  description: "Validates and normalises a US postal address.",
  steps,
  maxModelCalls: 4,
});
