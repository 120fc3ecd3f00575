import { Step, tool, stay, advance, characterProblem, type StepContext } from "../../engine/index.ts";
import type { ExploreState } from "./chosen-hotels.ts";
import type { HotelFlowTypes } from "./hotel-flow.ts";
import { formatCents } from "./format-cents.ts";
import { joinNames } from "./join-names.ts";
import { findHotel, PORTLAND_HOTELS } from "./portland-hotels.ts";

const CATALOGUE = PORTLAND_HOTELS.map(
  (hotel) => `- ${hotel.name} (${hotel.neighborhood}): ${formatCents(hotel.nightlyRateCents)} a night`,
).join("\n");
const NAMES = joinNames(PORTLAND_HOTELS.map((hotel) => hotel.name));

export class ExploreStep extends Step<ExploreState, HotelFlowTypes> {
  systemPrompt(): string {
    return (
      "You are a hotel booking assistant for Portland, Oregon. The Portland hotels and their nightly rates for one room:\n" +
      `${CATALOGUE}\n` +
      "When the user asks what is available, list these hotels with their neighbourhoods and nightly rates " +
      "and ask which ones they want; they may choose more than one. " +
      "When the user names one or more hotels, call choose_hotels with the names as the user gave them; " +
      "the tool checks them against the list. " +
      "If the tool says a name is not among our hotels, tell the user, quoting the name, " +
      "and ask them to choose from the list. Do not ask about dates yet."
    );
  }

  @tool({
    name: "choose_hotels",
    description: "Save the Portland hotels the user chose, one room each; names are checked against the catalogue.",
    parameters: {
      type: "object",
      properties: {
        hotels: { type: "array", minItems: 1, maxItems: 5, items: { type: "string", minLength: 1, maxLength: 100 } },
      },
      required: ["hotels"],
      additionalProperties: false,
    },
  })
  chooseHotels(args: { hotels: string[] }, context: StepContext<ExploreState, HotelFlowTypes>) {
    const unsavable = args.hotels
      .map((name) => characterProblem(name.trim(), "A hotel name"))
      .find((problem) => problem !== undefined);
    if (unsavable) return stay(unsavable);
    const unknown = args.hotels.filter((name) => !findHotel(name));
    if (unknown.length) {
      const names = joinNames(unknown.map((name) => `"${name}"`));
      return stay(
        `${names} ${unknown.length === 1 ? "is" : "are"} not among our Portland hotels. The hotels are ${NAMES}. ` +
          "Tell the user, quoting the name, and ask them to choose from the list.",
      );
    }
    const hotels = [...new Set(args.hotels.map((name) => findHotel(name)!))];
    context.state.hotels = hotels.map((hotel) => ({ name: hotel.name, nightlyRateCents: hotel.nightlyRateCents }));
    return advance("DatesStep", `Chose ${joinNames(hotels.map((hotel) => hotel.name))}.`);
  }
}
