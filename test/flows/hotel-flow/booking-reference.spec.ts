import assert from "node:assert/strict";
import { test } from "node:test";
import { bookingReference } from "../../../src/flows/hotel/booking-reference.ts";

test("a booking reference is PDX- and 8 hex digits, the same for the same stay whatever the hotels' order", () => {
  const reference = bookingReference(["Pearl District Inn", "Rose City Lodge"], "2027-08-09", "2027-08-16");
  assert.equal(reference, "PDX-FD25DF11");
  assert.equal(bookingReference(["Rose City Lodge", "Pearl District Inn"], "2027-08-09", "2027-08-16"), reference);
});

test("a booking reference changes with the hotels and with each date", () => {
  const references = new Set([
    bookingReference(["Pearl District Inn", "Rose City Lodge"], "2027-08-09", "2027-08-16"),
    bookingReference(["Rose City Lodge"], "2027-08-09", "2027-08-16"),
    bookingReference(["Pearl District Inn", "Rose City Lodge"], "2027-08-10", "2027-08-16"),
    bookingReference(["Pearl District Inn", "Rose City Lodge"], "2027-08-09", "2027-08-17"),
  ]);
  assert.equal(references.size, 4);
  for (const reference of references) assert.match(reference, /^PDX-[0-9A-F]{8}$/);
});
