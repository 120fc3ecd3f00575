import assert from "node:assert/strict";
import moment from "moment";
import { HotelFlow, resolveStay } from "../../src/flows/hotel/index.ts";
import { registeredFlows } from "../../src/flows/index.ts";
import { bookingReference } from "../../src/flows/hotel/booking-reference.ts";
import { findHotel } from "../../src/flows/hotel/portland-hotels.ts";
import { describeFlowScenarios, stepState } from "../../src/testing/index.ts";

describeFlowScenarios(HotelFlow, {
  flows: registeredFlows,
  scenarios: {
    "hotel-flow": {
      domain: (document) => {
        const chosen = stepState(document, "ExploreStep").hotels ?? [];
        const stay = stepState(document, "DatesStep");
        assert.ok(stay.checkIn && stay.checkOut && stay.quote, "DatesStep saved no priced stay");
        const booking = stepState(document, "BookStep").booking;
        assert.ok(booking, "BookStep saved no booking");

        // The dates are the pinned clock's reading of the user's words, not the model's.
        const resolved = resolveStay("the second week of August", moment.utc("2027-07-15T00:00:00.000Z"));
        assert.deepEqual(resolved, {
          ok: true,
          stay: { checkIn: stay.checkIn, checkOut: stay.checkOut, nights: stay.nights },
        });
        assert.equal(moment.utc(stay.checkOut).diff(moment.utc(stay.checkIn), "days"), stay.nights);

        // The chosen hotels were reused: booked as chosen, at the rates they were offered at.
        assert.deepEqual(
          booking.lines.map((line) => line.hotel),
          chosen.map((hotel) => hotel.name),
        );
        for (const line of booking.lines) {
          assert.equal(line.nightlyRateCents, findHotel(line.hotel)?.nightlyRateCents);
          assert.equal(line.amountCents, line.nights * line.nightlyRateCents);
          assert.equal(line.nights, stay.nights);
        }
        assert.equal(
          booking.totalCents,
          booking.lines.reduce((sum, line) => sum + line.amountCents, 0),
        );
        assert.ok(Number.isSafeInteger(booking.totalCents));
        assert.deepEqual(booking.lines, stay.quote.lines);
        assert.equal(
          booking.reference,
          bookingReference(
            chosen.map((hotel) => hotel.name),
            stay.checkIn,
            stay.checkOut,
          ),
        );

        const quotes = document.children.filter((child) => child.flow === "RateQuote");
        assert.equal(quotes.length, 1);
        assert.equal(quotes[0]?.parentStep, "DatesStep");
        assert.equal(quotes[0]?.runStatus, "completed");
        assert.deepEqual(quotes[0]?.steps["PriceStayStep"]?.["quote"], stay.quote);
      },
    },
  },
});
