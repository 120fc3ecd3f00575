import type { StayDates } from "../resolve-stay.ts";

/** The one message DatesStep sends the RateQuote child: the hotels, then the two days. */
export function rateQuoteRequest(hotels: readonly string[], stay: StayDates): string {
  return `Price one room at each of these hotels: ${hotels.join("; ")}. Check-in ${stay.checkIn}, check-out ${stay.checkOut}.`;
}
