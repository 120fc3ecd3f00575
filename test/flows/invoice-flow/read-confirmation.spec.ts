import assert from "node:assert/strict";
import { test } from "node:test";
import { readConfirmation } from "../../../src/flows/invoice/read-confirmation.ts";

test("yes, in the ways people say it, reads as yes", () => {
  for (const answer of [
    "yes",
    "Yes!",
    "y",
    "yep",
    "Yeah, go ahead",
    "ok",
    "Okay.",
    "confirm",
    "Issue it",
    "looks good",
    "  YES, issue it please ",
  ]) {
    assert.equal(readConfirmation(answer), "yes", answer);
  }
});

test("no, in the ways people say it, reads as no", () => {
  for (const answer of ["no", "No.", "n", "nope", "not yet", "no, remove line 2", "wait", "change the widgets"]) {
    assert.equal(readConfirmation(answer), "no", answer);
  }
});

test("an answer that is neither reads as undefined, even when it starts like one", () => {
  for (const answer of ["maybe", "not sure", "nothing", "yesterday", "okey dokey", "I think so", "?"]) {
    assert.equal(readConfirmation(answer), undefined, answer);
  }
});
