/** Fixed temperatures (°F) by city alias, so the flow's answers and state never vary. */
export const WEATHER_FIXTURE: Readonly<Record<string, { city: string; fahrenheit: number }>> = Object.freeze({
  LA: { city: "Los Angeles", fahrenheit: 72 },
  NYC: { city: "New York City", fahrenheit: 64 },
  SF: { city: "San Francisco", fahrenheit: 61 },
  CHI: { city: "Chicago", fahrenheit: 55 },
  SEA: { city: "Seattle", fahrenheit: 58 },
  PDX: { city: "Portland", fahrenheit: 66 },
});
