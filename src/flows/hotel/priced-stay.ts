import type { DeepReadonly, StepContext } from "../../engine/index.ts";
import type { HotelFlowTypes } from "./hotel-flow.ts";
import type { Quote } from "./rate-quote/quote-stay.ts";
import type { StayDates } from "./resolve-stay.ts";

/** DatesStep's state: the stay as the user said it, resolved, and priced by the RateQuote child. */
export interface PricedStay extends StayDates {
  /** The user's words, e.g. "the second week of August". */
  words: string;
  quote: Quote;
}

export type DatesState = Partial<PricedStay>;

/** The stay DatesStep saved, for BookStep's prompt and tool. */
export function pricedStay(context: Pick<StepContext<object, HotelFlowTypes>, "stateOf">): DeepReadonly<PricedStay> {
  // BookStep is only reached once DatesStep has saved a priced stay.
  return context.stateOf("DatesStep") as DeepReadonly<PricedStay>;
}
