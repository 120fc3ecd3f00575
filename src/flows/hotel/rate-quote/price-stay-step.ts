import { Step, tool, complete, type StepContext } from "../../../engine/index.ts";
import { formatCents } from "../format-cents.ts";
import { joinNames } from "../join-names.ts";
import { quoteStay, type Quote } from "./quote-stay.ts";
import type { RateQuoteTypes } from "./rate-quote-flow.ts";

export interface PriceStayState {
  quote?: Quote;
}

/** Prices the stay its parent gave as input: the hotels and days are data, never copied by the model. */
export class PriceStayStep extends Step<PriceStayState, RateQuoteTypes> {
  systemPrompt(context: StepContext<PriceStayState, RateQuoteTypes>): string {
    const { hotels, checkIn, checkOut } = context.input;
    return (
      `You price hotel stays in Portland. Call price_stay to price one room at each of ${joinNames(hotels.map((hotel) => hotel.name))} ` +
      `from check-in ${checkIn} to check-out ${checkOut}, then answer with the tool's result.`
    );
  }

  @tool({
    name: "price_stay",
    description: "Price one room per hotel for the stay asked for, at the hotels' nightly rates, and save the quote.",
    parameters: { type: "object", properties: {}, additionalProperties: false },
  })
  priceStay(_args: {}, context: StepContext<PriceStayState, RateQuoteTypes>) {
    const { hotels, checkIn, checkOut, nights } = context.input;
    const quote = quoteStay(hotels, checkIn, checkOut, nights);
    context.state.quote = quote;
    const lines = quote.lines.map((line) => `${line.hotel} ${formatCents(line.amountCents)}`).join(", ");
    return complete(
      `Quoted ${nights} nights, ${checkIn} to ${checkOut}: ${lines}; total ${formatCents(quote.totalCents)}.`,
      quote,
    );
  }
}
