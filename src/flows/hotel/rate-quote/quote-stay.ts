export interface QuoteLine {
  hotel: string;
  nightlyRateCents: number;
  nights: number;
  /** nights × nightlyRateCents: one room at this hotel for the whole stay. */
  amountCents: number;
}

export interface Quote {
  checkIn: string;
  checkOut: string;
  nights: number;
  lines: QuoteLine[];
  totalCents: number;
}

/** Prices one room per hotel for `nights` nights; integer cents throughout, so nothing is rounded. */
export function quoteStay(
  hotels: readonly { name: string; nightlyRateCents: number }[],
  checkIn: string,
  checkOut: string,
  nights: number,
): Quote {
  const lines = hotels.map((hotel) => ({
    hotel: hotel.name,
    nightlyRateCents: hotel.nightlyRateCents,
    nights,
    amountCents: nights * hotel.nightlyRateCents,
  }));
  return { checkIn, checkOut, nights, lines, totalCents: lines.reduce((sum, line) => sum + line.amountCents, 0) };
}
