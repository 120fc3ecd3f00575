import { Step, tool, stay, complete, characterProblem, type StepContext } from "../../engine/index.ts";
import { bookingReference } from "./booking-reference.ts";
import { chosenHotels } from "./chosen-hotels.ts";
import { formatCents } from "./format-cents.ts";
import type { HotelFlowTypes } from "./hotel-flow.ts";
import { joinNames } from "./join-names.ts";
import { findHotel } from "./portland-hotels.ts";
import { pricedStay } from "./priced-stay.ts";
import type { QuoteLine } from "./rate-quote/quote-stay.ts";

export interface Booking {
  /** Derived from the stay: see bookingReference. */
  reference: string;
  checkIn: string;
  checkOut: string;
  nights: number;
  /** The quote's lines of the hotels booked, one room each. */
  lines: QuoteLine[];
  totalCents: number;
}

export interface BookState {
  booking?: Booking;
}

export class BookStep extends Step<BookState, HotelFlowTypes> {
  systemPrompt(context: StepContext<BookState, HotelFlowTypes>): string {
    const hotels = chosenHotels(context).map((hotel) => hotel.name);
    const { checkIn, checkOut, nights, quote } = pricedStay(context);
    const lines = quote.lines
      .map(
        (line) =>
          `- ${line.hotel}: ${line.nights} nights × ${formatCents(line.nightlyRateCents)} = ${formatCents(line.amountCents)}`,
      )
      .join("\n");
    return (
      `The user chose these Portland hotels earlier: ${hotels.join(", ")}. ` +
      `Never ask them to choose hotels again; "the same hotels" means these.\n` +
      `Their stay: check-in ${checkIn}, check-out ${checkOut}, ${nights} nights.\n` +
      `The quote, one room per hotel:\n${lines}\nTotal: ${formatCents(quote.totalCents)}\n` +
      "Show the user this quote and ask them to confirm the booking. " +
      'When the user confirms (e.g. "yes", "book it", "book the same hotels"), ' +
      "call book_stay with the names of the chosen hotels to book: all of them unless the user names fewer. " +
      "If the tool says a hotel was not chosen, tell the user and offer the chosen ones. " +
      "After booking, give the booking reference and the total, and close the conversation."
    );
  }

  @tool({
    name: "book_stay",
    description:
      "Book one room at each of the named hotels, which must be among the hotels the user chose, for the quoted stay.",
    parameters: {
      type: "object",
      properties: {
        hotels: { type: "array", minItems: 1, maxItems: 5, items: { type: "string", minLength: 1, maxLength: 100 } },
      },
      required: ["hotels"],
      additionalProperties: false,
    },
  })
  bookStay(args: { hotels: string[] }, context: StepContext<BookState, HotelFlowTypes>) {
    const unsavable = args.hotels
      .map((name) => characterProblem(name.trim(), "A hotel name"))
      .find((problem) => problem !== undefined);
    if (unsavable) return stay(unsavable);
    const chosen = chosenHotels(context).map((hotel) => hotel.name);
    const unchosen = args.hotels.filter((name) => !chosen.includes(findHotel(name)?.name ?? ""));
    if (unchosen.length) {
      const names = joinNames(unchosen.map((name) => `"${name}"`));
      return stay(
        `${names} ${unchosen.length === 1 ? "was" : "were"} not chosen; the chosen hotels are ${joinNames(chosen)}. ` +
          "Tell the user and offer to book the chosen hotels; do not ask them to choose hotels again.",
      );
    }
    const booked = new Set(args.hotels.map((name) => findHotel(name)!.name));
    const { checkIn, checkOut, nights, quote } = pricedStay(context);
    const lines = quote.lines.filter((line) => booked.has(line.hotel));
    const totalCents = lines.reduce((sum, line) => sum + line.amountCents, 0);
    const hotels = lines.map((line) => line.hotel);
    const reference = bookingReference(hotels, checkIn, checkOut);
    context.state.booking = { reference, checkIn, checkOut, nights, lines, totalCents };
    return complete(
      `Booked ${joinNames(hotels)} for ${checkIn} to ${checkOut} (${nights} nights). ` +
        `Reference ${reference}. Total ${formatCents(totalCents)}. ` +
        "Give the user the reference and the total, and close the conversation.",
    );
  }
}
