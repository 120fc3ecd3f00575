import moment from "moment";
import { Step, tool, stay, complete, type StepContext } from "../../../engine/index.ts";
import { formatCents } from "../format-cents.ts";
import { joinNames } from "../join-names.ts";
import { findHotel, PORTLAND_HOTELS } from "../portland-hotels.ts";
import { quoteStay, type Quote } from "./quote-stay.ts";

export interface PriceStayState {
  quote?: Quote;
}

const DAY_PATTERN = "^\\d{4}-\\d{2}-\\d{2}$";

export class PriceStayStep extends Step<PriceStayState> {
  systemPrompt(): string {
    return (
      "You price hotel stays in Portland. The message names the hotels and the check-in and check-out days (YYYY-MM-DD). " +
      "Call price_stay once with every hotel named and both days, copied exactly, then answer with the tool's result."
    );
  }

  @tool({
    name: "price_stay",
    description: "Price one room per hotel for the stay at the hotels' nightly rates, and save the quote.",
    parameters: {
      type: "object",
      properties: {
        hotels: { type: "array", minItems: 1, maxItems: 5, items: { type: "string", minLength: 1, maxLength: 100 } },
        checkIn: { type: "string", pattern: DAY_PATTERN },
        checkOut: { type: "string", pattern: DAY_PATTERN },
      },
      required: ["hotels", "checkIn", "checkOut"],
      additionalProperties: false,
    },
  })
  priceStay(args: { hotels: string[]; checkIn: string; checkOut: string }, context: StepContext<PriceStayState>) {
    const unknown = args.hotels.filter((name) => !findHotel(name));
    if (unknown.length) {
      const names = joinNames(unknown.map((name) => `"${name}"`));
      return stay(`${names} ${unknown.length === 1 ? "is" : "are"} not in the catalogue; the hotels are ${joinNames(PORTLAND_HOTELS.map((h) => h.name))}.`);
    }
    const start = moment.utc(args.checkIn, "YYYY-MM-DD", true);
    const end = moment.utc(args.checkOut, "YYYY-MM-DD", true);
    if (!start.isValid()) return stay(`"${args.checkIn}" is not a calendar day.`);
    if (!end.isValid()) return stay(`"${args.checkOut}" is not a calendar day.`);
    const nights = end.diff(start, "days");
    if (nights < 1) return stay(`Check-out ${args.checkOut} is not after check-in ${args.checkIn}.`);
    const hotels = [...new Set(args.hotels.map((name) => findHotel(name)!))];
    const quote = quoteStay(hotels, args.checkIn, args.checkOut, nights);
    context.state.quote = quote;
    const lines = quote.lines.map((line) => `${line.hotel} ${formatCents(line.amountCents)}`).join(", ");
    return complete(`Quoted ${nights} nights, ${args.checkIn} to ${args.checkOut}: ${lines}; total ${formatCents(quote.totalCents)}.`);
  }
}
