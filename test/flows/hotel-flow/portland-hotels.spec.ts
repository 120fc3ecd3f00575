import assert from "node:assert/strict";
import { test } from "node:test";
import { findHotel, PORTLAND_HOTELS } from "../../../src/flows/hotel/portland-hotels.ts";

test("findHotel matches a catalogue name ignoring case, punctuation, spacing and a leading 'the'", () => {
  for (const name of [
    "Pearl District Inn",
    "pearl district inn",
    "The Pearl District Inn",
    "  PEARL   district inn. ",
  ]) {
    assert.equal(findHotel(name)?.name, "Pearl District Inn", name);
  }
});

test("findHotel finds nothing for a name that is not in the catalogue, or only part of one", () => {
  for (const name of ["The Ritz Portland", "Pearl District", "Inn", "Rose City Motel", ""])
    assert.equal(findHotel(name), undefined, name);
});

test("the catalogue's names are distinct and its rates are whole positive cents", () => {
  assert.equal(new Set(PORTLAND_HOTELS.map((hotel) => hotel.name)).size, PORTLAND_HOTELS.length);
  for (const hotel of PORTLAND_HOTELS)
    assert.ok(Number.isInteger(hotel.nightlyRateCents) && hotel.nightlyRateCents > 0, hotel.name);
});
