import { TERRITORIES, type Territory } from "./rating-tables.ts";

/** The territory of a 5-digit ZIP code, by its first three digits; undefined outside the service area. */
export function territoryOf(zipCode: string): Territory | undefined {
  const prefix = zipCode.slice(0, 3);
  return TERRITORIES.find((territory) => territory.zipPrefixes.includes(prefix));
}
