import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { findHotel, PORTLAND_HOTELS } from "../../../src/flows/hotel/portland-hotels.ts";
import { quoteStay } from "../../../src/flows/hotel/rate-quote/quote-stay.ts";

describe("quoteStay", () => {
  test("each line is nights × the nightly rate and the total is their sum, in whole cents", () => {
    const hotels = [findHotel("Pearl District Inn")!, findHotel("Rose City Lodge")!];
    assert.deepEqual(quoteStay(hotels, "2027-08-09", "2027-08-16", 7), {
      checkIn: "2027-08-09",
      checkOut: "2027-08-16",
      nights: 7,
      lines: [
        { hotel: "Pearl District Inn", nightlyRateCents: 18900, nights: 7, amountCents: 132300 },
        { hotel: "Rose City Lodge", nightlyRateCents: 14999, nights: 7, amountCents: 104993 },
      ],
      totalCents: 237293,
    });
  });

  test("rates whose dollar values are inexact in binary floating point still add up exactly", () => {
    // 0.1 + 0.2 style drift would show here: every rate for 30 nights, summed in cents.
    const quote = quoteStay(PORTLAND_HOTELS, "2027-08-01", "2027-08-31", 30);
    assert.equal(quote.totalCents, 30 * (18900 + 14999 + 24550 + 12875 + 21000));
    assert.equal(quote.totalCents, 2769720);
    assert.ok(quote.lines.every((line) => Number.isSafeInteger(line.amountCents)));
  });
});
