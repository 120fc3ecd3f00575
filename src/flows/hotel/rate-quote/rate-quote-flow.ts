import { defineFlow, type FlowTypes } from "../../../engine/index.ts";
import { PriceStayStep } from "./price-stay-step.ts";
import type { Quote } from "./quote-stay.ts";
import type { RateQuoteRequest } from "./rate-quote-request.ts";

const steps = { PriceStayStep };

/** RateQuote is given the stay to price as input and completes with its quote as output. */
export interface RateQuoteTypes extends FlowTypes<typeof steps, { input: RateQuoteRequest; output: Quote }> {}

/** A child flow of HotelFlow's DatesStep: prices one room per chosen hotel for the resolved stay. */
export const RateQuoteFlow = defineFlow<RateQuoteTypes>({
  name: "RateQuote",
  description: "Prices a Portland hotel stay: one room per hotel, nights × nightly rate, in cents.",
  steps,
  maxModelCalls: 4,
});
