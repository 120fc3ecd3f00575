export interface Hotel {
  name: string;
  neighborhood: string;
  /** One room, one night, in US cents: money stays in integers so totals are exact. */
  nightlyRateCents: number;
}

/** The fixed catalogue HotelFlow offers, so quotes and scenario assertions never vary. */
export const PORTLAND_HOTELS: readonly Hotel[] = Object.freeze([
  { name: "Pearl District Inn", neighborhood: "Pearl District", nightlyRateCents: 18900 },
  { name: "Rose City Lodge", neighborhood: "Hollywood", nightlyRateCents: 14999 },
  { name: "Willamette Riverside Hotel", neighborhood: "South Waterfront", nightlyRateCents: 24550 },
  { name: "Hawthorne House", neighborhood: "Hawthorne", nightlyRateCents: 12875 },
  { name: "Forest Park Suites", neighborhood: "Northwest", nightlyRateCents: 21000 },
]);

function comparable(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9 ]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^the /, "");
}

/** The catalogue hotel a name means, ignoring case, punctuation and a leading "the". */
export function findHotel(name: string): Hotel | undefined {
  const wanted = comparable(name);
  return PORTLAND_HOTELS.find((hotel) => comparable(hotel.name) === wanted);
}
