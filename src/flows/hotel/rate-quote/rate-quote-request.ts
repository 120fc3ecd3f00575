import type { StayDates } from "../resolve-stay.ts";

/** What DatesStep gives the RateQuote child as input: the resolved stay, and the hotels at the rates they were offered at. */
export interface RateQuoteRequest extends StayDates {
  hotels: readonly { name: string; nightlyRateCents: number }[];
}
