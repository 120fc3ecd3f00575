import { defineFlow } from "../../../engine/index.ts";
import { NormalizeAddressStep } from "./normalize-address-step.ts";

/** A child flow of BasicFlow's AddressStep: reads a one-line address and saves it normalised. */
export const AddressCheckFlow = defineFlow({
  name: "AddressCheck",
  description: "Validates and normalises a US postal address.",
  steps: [NormalizeAddressStep],
  maxModelCalls: 4,
});
