import { defineFlow } from "../../../engine/index.ts";
import { PriceStayStep } from "./price-stay-step.ts";

/** A child flow of HotelFlow's DatesStep: prices one room per chosen hotel for the resolved stay. */
export const RateQuoteFlow = defineFlow({
  name: "RateQuote",
  description: "Prices a Portland hotel stay: one room per hotel, nights × nightly rate, in cents.",
  steps: [PriceStayStep],
  maxModelCalls: 4,
});
