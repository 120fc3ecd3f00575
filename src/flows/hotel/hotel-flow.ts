import { defineFlow, type FlowTypes } from "../../engine/index.ts";
import { BookStep } from "./book-step.ts";
import { DatesStep } from "./dates-step.ts";
import { ExploreStep } from "./explore-step.ts";
import { RateQuoteFlow } from "./rate-quote/rate-quote-flow.ts";

const steps = { ExploreStep, DatesStep, BookStep };

/** HotelFlow's step names and states, for its steps' `Step<State, HotelFlowTypes>`. */
export interface HotelFlowTypes extends FlowTypes<typeof steps> {}

/** Portland hotels: choose some, give the stay in words (resolved against the flow's clock), book. */
export const HotelFlow = defineFlow<HotelFlowTypes>({
  name: "HotelFlow",
  description:
    "Explores Portland hotels, takes a stay in words resolved against HOTEL_FLOW_CURRENT_DATE, prices it and books it.",
  steps,
  children: [RateQuoteFlow],
});
