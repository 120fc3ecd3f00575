import { defineFlow } from "../../engine/index.ts";
import { AddressCheckFlow } from "./address-check/address-check-flow.ts";
import { AddressStep } from "./address-step.ts";
import { NameStep } from "./name-step.ts";
import { WeatherStep } from "./weather-step.ts";

/** The first demo: a real name, the weather in two cities, and a validated US address. */
export const BasicFlow = defineFlow({
  name: "BasicFlow",
  description: "Asks for a real name, reports the weather in two cities, and saves a validated US address.",
  steps: [NameStep, WeatherStep, AddressStep],
  children: [AddressCheckFlow],
});
