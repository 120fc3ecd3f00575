import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { MemoryEntry } from "../../../src/engine/index.ts";
import { bookingReference } from "../../../src/flows/hotel/booking-reference.ts";
import { hotelFlowScripts } from "../../../src/flows/hotel/index.ts";
import { openHotelApp, reachBookStep, reachDatesStep } from "./open-hotel-app.ts";

const CHOSEN = ["Pearl District Inn", "Rose City Lodge"];

function toolCallArgs(memory: readonly MemoryEntry[] | undefined, tool: string): unknown[] {
  return (memory ?? []).flatMap((entry) =>
    entry.role === "assistant"
      ? (entry.toolCalls ?? [])
          .filter((call) => call.name === tool)
          .map((call) => JSON.parse(call.arguments) as unknown)
      : [],
  );
}

describe("HotelFlow: chosen hotels are reused, and the stay is priced and booked exactly", () => {
  test("hotel names are matched ignoring case and a leading 'the', and a hotel named twice is chosen once", async (t) => {
    const { conversation } = await openHotelApp(t);
    const chat = conversation();
    const outcome = await chat.say("the pearl district inn, ROSE CITY LODGE and Pearl District Inn");
    assert.equal(outcome.currentStep, "DatesStep");
    assert.deepEqual((await chat.stored()).steps["ExploreStep"], {
      hotels: [
        { name: "Pearl District Inn", nightlyRateCents: 18900 },
        { name: "Rose City Lodge", nightlyRateCents: 14999 },
      ],
    });
  });

  test("DatesStep and BookStep are told the chosen hotels and told not to ask for hotels again", async (t) => {
    const prompts = new Map<string, string>();
    const hotelFlow = hotelFlowScripts["HotelFlow"]!;
    const { conversation } = await openHotelApp(t, {
      scripts: { HotelFlow: (request) => (prompts.set(request.context.step, request.system), hotelFlow(request)) },
    });
    const chat = conversation();
    await reachDatesStep(chat);
    assert.match(
      prompts.get("DatesStep")!,
      /chosen these Portland hotels: Pearl District Inn \(\$189\.00 a night\), Rose City Lodge \(\$149\.99 a night\)\. They are settled: never ask/,
    );
    await chat.say("the second week of August");
    const book = prompts.get("BookStep")!;
    assert.match(
      book,
      /^The user chose these Portland hotels earlier: Pearl District Inn, Rose City Lodge\. Never ask them to choose hotels again/,
    );
    assert.match(book, /^Their stay: check-in 2027-08-09, check-out 2027-08-16, 7 nights\.$/m);
    assert.match(book, /^- Pearl District Inn: 7 nights × \$189\.00 = \$1,323\.00$/m);
    assert.match(book, /^- Rose City Lodge: 7 nights × \$149\.99 = \$1,049\.93$/m);
    assert.match(book, /^Total: \$2,372\.93$/m);
  });

  test("after the hotels are chosen no answer asks which hotels, and 'book the same hotels' books every chosen one", async (t) => {
    const { conversation } = await openHotelApp(t);
    const chat = conversation();
    const answers = [
      (await chat.say("Pearl District Inn and Rose City Lodge")).response,
      (await chat.say("the second week of August")).response,
    ];
    const booked = await chat.say("Book the same hotels");
    answers.push(booked.response);
    for (const answer of answers) assert.doesNotMatch(answer, /which (hotel|one)s?|choose (a |some )?hotels?/i);
    assert.equal(booked.runStatus, "completed");

    const document = await chat.stored();
    assert.deepEqual(toolCallArgs(document.memory["BookStep"], "book_stay"), [{ hotels: CHOSEN }]);
    const booking = document.steps["BookStep"]?.["booking"];
    assert.deepEqual(booking, {
      reference: bookingReference(CHOSEN, "2027-08-09", "2027-08-16"),
      checkIn: "2027-08-09",
      checkOut: "2027-08-16",
      nights: 7,
      lines: [
        { hotel: "Pearl District Inn", nightlyRateCents: 18900, nights: 7, amountCents: 132300 },
        { hotel: "Rose City Lodge", nightlyRateCents: 14999, nights: 7, amountCents: 104993 },
      ],
      totalCents: 237293,
    });
    assert.match(booked.response, /reference is PDX-[0-9A-F]{8} and the total is \$2,372\.93/);
  });

  test("booking fewer hotels than chosen books only those, at their quoted amounts", async (t) => {
    const { conversation } = await openHotelApp(t);
    const chat = conversation();
    await reachBookStep(chat);
    const booked = await chat.say("Just book Rose City Lodge");
    assert.equal(booked.runStatus, "completed");
    const booking = (await chat.stored()).steps["BookStep"]?.["booking"] as {
      reference: string;
      lines: { hotel: string }[];
      totalCents: number;
    };
    assert.deepEqual(
      booking.lines.map((line) => line.hotel),
      ["Rose City Lodge"],
    );
    assert.equal(booking.totalCents, 104993);
    assert.equal(booking.reference, bookingReference(["Rose City Lodge"], "2027-08-09", "2027-08-16"));
    assert.notEqual(booking.reference, bookingReference(CHOSEN, "2027-08-09", "2027-08-16"));
  });

  test("the RateQuote child is given the chosen hotels and the resolved days as input, and its output is DatesStep's quote", async (t) => {
    const { conversation } = await openHotelApp(t);
    const chat = conversation();
    await reachBookStep(chat);
    const document = await chat.stored();
    assert.equal(document.children.length, 1);
    const child = document.children[0]!;
    assert.deepEqual(
      [child.flow, child.parentStep, child.runStatus, child.turn],
      ["RateQuote", "DatesStep", "completed", 2],
    );
    assert.deepEqual(child.memory["PriceStayStep"]?.[0], {
      role: "user",
      content: "Price the stay from 2027-08-09 to 2027-08-16.",
    });
    const quote = child.steps["PriceStayStep"]?.["quote"] as {
      checkIn: string;
      checkOut: string;
      lines: { hotel: string; nightlyRateCents: number }[];
    };
    assert.deepEqual([quote.checkIn, quote.checkOut], ["2027-08-09", "2027-08-16"]);
    assert.deepEqual(
      quote.lines.map((line) => [line.hotel, line.nightlyRateCents]),
      [
        ["Pearl District Inn", 18900],
        ["Rose City Lodge", 14999],
      ],
    );
    assert.deepEqual(child.steps["PriceStayStep"]?.["quote"], document.steps["DatesStep"]?.["quote"]);
    assert.equal(document.steps["DatesStep"]?.["words"], "the second week of August");
  });
});
