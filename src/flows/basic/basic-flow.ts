import { defineFlow, type FlowTypes } from "../../engine/index.ts";
import { AddressCheckFlow } from "./address-check/address-check-flow.ts";
import { AddressStep } from "./address-step.ts";
import { NameStep } from "./name-step.ts";
import { WeatherStep } from "./weather-step.ts";

const steps = { NameStep, WeatherStep, AddressStep };

/** BasicFlow's step names and states, for its steps' `Step<State, BasicFlowTypes>`. */
export interface BasicFlowTypes extends FlowTypes<typeof steps> {}

/** The first demo: a real name, the weather in two cities, and a validated US address. */
export const BasicFlow = defineFlow<BasicFlowTypes>({
  name: "BasicFlow",
  description: "Asks for a real name, reports the weather in two cities, and saves a validated US address.",
  steps,
  children: [AddressCheckFlow],
});
