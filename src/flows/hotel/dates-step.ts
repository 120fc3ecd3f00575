import { Step, tool, stay, advance, type StepContext } from "../../engine/index.ts";
import { BookStep } from "./book-step.ts";
import { chosenHotels } from "./chosen-hotels.ts";
import { formatCents } from "./format-cents.ts";
import type { DatesState } from "./priced-stay.ts";
import type { Quote } from "./rate-quote/quote-stay.ts";
import { RateQuoteFlow } from "./rate-quote/rate-quote-flow.ts";
import { rateQuoteRequest } from "./rate-quote/rate-quote-request.ts";
import { resolveStay, type StayDates } from "./resolve-stay.ts";

/** The child's quote is for exactly the stay asked for: a live child model may have copied it wrong. */
function quotes(quote: Quote | undefined, hotels: readonly string[], stay: StayDates): quote is Quote {
  if (!quote || quote.checkIn !== stay.checkIn || quote.checkOut !== stay.checkOut || quote.nights !== stay.nights) return false;
  const quoted = quote.lines.map((line) => line.hotel).sort();
  return quoted.length === hotels.length && [...hotels].sort().every((name, index) => quoted[index] === name);
}

export class DatesStep extends Step<DatesState> {
  systemPrompt(context: StepContext<DatesState>): string {
    const hotels = chosenHotels(context)
      .map((hotel) => `${hotel.name} (${formatCents(hotel.nightlyRateCents)} a night)`)
      .join(", ");
    return (
      `The user has chosen these Portland hotels: ${hotels}. They are settled: never ask the user to choose hotels again.\n` +
      `Today is ${context.now().utc().format("dddd YYYY-MM-DD")}.\n` +
      'Ask the user for the dates of their stay, from check-in to check-out, in any words (e.g. "Aug 9 to Aug 14", "the second week of August", "next weekend"). ' +
      "Call set_stay_dates with the user's words exactly as they said them; do not turn them into dates yourself, the tool resolves them against today. " +
      "If the tool says the stay cannot be booked, tell the user why and ask for other dates."
    );
  }

  @tool({
    name: "set_stay_dates",
    description: "Resolve the stay the user described in words (check-in to check-out) against today, check it can be booked, and price it.",
    parameters: {
      type: "object",
      properties: { dates: { type: "string", minLength: 1, maxLength: 200, description: "The user's words for the stay, unchanged." } },
      required: ["dates"],
      additionalProperties: false,
    },
  })
  async setStayDates(args: { dates: string }, context: StepContext<DatesState>) {
    const resolution = resolveStay(args.dates, context.now());
    if (!resolution.ok) {
      return stay(`"${args.dates}" cannot be booked: ${resolution.reason}. Tell the user why and ask for the stay dates again.`);
    }
    const hotels = chosenHotels(context).map((hotel) => hotel.name);
    const priced = await context.runChild(RateQuoteFlow, rateQuoteRequest(hotels, resolution.stay));
    if (priced.runStatus !== "completed") {
      return stay(`The stay could not be priced: ${priced.reply} Apologise and ask the user to give the dates again.`);
    }
    const quote = priced.steps["PriceStayStep"]?.["quote"] as Quote | undefined;
    if (!quotes(quote, hotels, resolution.stay)) {
      return stay("The stay could not be priced: the quote did not cover the hotels and days asked for. Apologise and ask the user to give the dates again.");
    }
    Object.assign(context.state, { words: args.dates, ...resolution.stay, quote });
    const { checkIn, checkOut, nights } = resolution.stay;
    return advance(BookStep, `The stay is ${checkIn} to ${checkOut}, ${nights} nights; the quote's total is ${formatCents(quote.totalCents)}.`);
  }
}
