import { Step, tool, stay, advance, characterProblem, type StepContext } from "../../engine/index.ts";
import { chosenHotels } from "./chosen-hotels.ts";
import { formatCents } from "./format-cents.ts";
import type { HotelFlowTypes } from "./hotel-flow.ts";
import type { DatesState } from "./priced-stay.ts";
import { RateQuoteFlow } from "./rate-quote/rate-quote-flow.ts";
import { resolveStay } from "./resolve-stay.ts";

export class DatesStep extends Step<DatesState, HotelFlowTypes> {
  systemPrompt(context: StepContext<DatesState, HotelFlowTypes>): string {
    const hotels = chosenHotels(context)
      .map((hotel) => `${hotel.name} (${formatCents(hotel.nightlyRateCents)} a night)`)
      .join(", ");
    return (
      `The user has chosen these Portland hotels: ${hotels}. They are settled: never ask the user to choose hotels again.\n` +
      `Today is ${context.now().utc().format("dddd YYYY-MM-DD")}.\n` +
      "Ask the user for the dates of their stay, from check-in to check-out, in any words " +
      '(e.g. "Aug 9 to Aug 14", "the second week of August", "next weekend"). ' +
      "Call set_stay_dates with the user's words exactly as they said them; " +
      "do not turn them into dates yourself, the tool resolves them against today. " +
      "If the tool says the stay cannot be booked, tell the user why and ask for other dates."
    );
  }

  @tool({
    name: "set_stay_dates",
    description:
      "Resolve the stay the user described in words (check-in to check-out) against today, check it can be booked, and price it.",
    parameters: {
      type: "object",
      properties: {
        dates: {
          type: "string",
          minLength: 1,
          maxLength: 200,
          description: "The user's words for the stay, unchanged.",
        },
      },
      required: ["dates"],
      additionalProperties: false,
    },
  })
  async setStayDates(args: { dates: string }, context: StepContext<DatesState, HotelFlowTypes>) {
    // The words are saved as the user gave them (`words`), so they are checked as they are.
    const unsavable = characterProblem(args.dates, "The text of the dates");
    if (unsavable) return stay(unsavable);
    const resolution = resolveStay(args.dates, context.now());
    if (!resolution.ok) {
      return stay(
        `"${args.dates}" cannot be booked: ${resolution.reason}. Tell the user why and ask for the stay dates again.`,
      );
    }
    const { checkIn, checkOut, nights } = resolution.stay;
    const priced = await context.runChild(RateQuoteFlow, {
      message: `Price the stay from ${checkIn} to ${checkOut}.`,
      input: { hotels: chosenHotels(context), ...resolution.stay },
    });
    if (priced.runStatus !== "completed") {
      return stay(`The stay could not be priced: ${priced.reply} Apologise and ask the user to give the dates again.`);
    }
    const quote = priced.output;
    Object.assign(context.state, { words: args.dates, ...resolution.stay, quote });
    return advance(
      "BookStep",
      `The stay is ${checkIn} to ${checkOut}, ${nights} nights; the quote's total is ${formatCents(quote.totalCents)}.`,
    );
  }
}
