import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { scriptedText, type Script } from "../../../src/engine/index.ts";
import type { ExecutionEntry, SessionDocument } from "../../../src/engine/session-document.ts";
import { openHotelApp, reachBookStep, reachDatesStep, type Conversation } from "./open-hotel-app.ts";

/** A RateQuote model that answers in words instead of pricing: the child does not complete. */
const closedRateQuote: Script = () => scriptedText("The rates service is closed today.");

function lastTool(document: SessionDocument): ExecutionEntry | undefined {
  return document.execution.filter((entry) => entry.kind === "tool").at(-1);
}

/**
 * Sends `input` and checks the turn was applied but the tool answered stay: the cursor did not
 * move, the run goes on, and the step saved nothing.
 */
async function assertStays(
  conversation: Conversation,
  input: string,
  step: string,
  tool: string,
  response: RegExp,
): Promise<SessionDocument> {
  const before = await conversation.stored();
  const outcome = await conversation.say(input);
  assert.equal(outcome.currentStep, step, `"${input}" moved the cursor: ${outcome.response}`);
  assert.equal(outcome.runStatus, "running");
  assert.match(outcome.response, response);
  const after = await conversation.stored();
  assert.equal(after.turns, before.turns + 1);
  assert.equal(after.flow.currentStep, step);
  assert.deepEqual(after.steps[step] ?? {}, {}, `${step} saved state for "${input}"`);
  assert.deepEqual(lastTool(after), {
    seq: after.execution.length,
    turn: after.turns,
    step,
    kind: "tool",
    name: tool,
    outcome: "stay",
  });
  return after;
}

describe("HotelFlow: every tool's invalid input stays", () => {
  test("choose_hotels stays on ExploreStep for names not in the catalogue, even beside a known one", async (t) => {
    const { conversation } = await openHotelApp(t);
    const cases: [string, RegExp][] = [
      ["The Ritz Portland", /"The Ritz Portland" is not among our Portland hotels/],
      ["Pearl District Inn and The Nines", /"The Nines" is not among our Portland hotels/],
      ["Hotel California, Motel 6", /"Hotel California" and "Motel 6" are not among our Portland hotels/],
    ];
    for (const [input, response] of cases) {
      const chat = conversation();
      await chat.say("Show me hotels in Portland");
      await assertStays(chat, input, "ExploreStep", "choose_hotels", response);
    }
  });

  test("set_stay_dates stays on DatesStep for past, backwards, too long, impossible and unreadable dates, without pricing them", async (t) => {
    const { conversation } = await openHotelApp(t);
    const chat = conversation();
    await reachDatesStep(chat);
    const cases: [string, RegExp][] = [
      ["July 1, 2027 to July 4, 2027", /check-in 2027-07-01 is in the past \(today is 2027-07-15\)/],
      ["Aug 14 to Aug 9", /check-out 2027-08-09 is not after check-in 2027-08-14/],
      ["Aug 9 to Aug 9", /not after check-in 2027-08-09/],
      ["Aug 1 to Sep 5", /35 nights, over the 30-night limit/],
      ["Feb 30 to Mar 2", /"feb 30" is not a calendar date/],
      ["Aug 9", /only a check-in day \(2027-08-09\)/],
      ["whenever suits", /no stay dates could be read/],
    ];
    for (const [input, response] of cases) {
      const after = await assertStays(chat, input, "DatesStep", "set_stay_dates", response);
      assert.deepEqual(after.children, [], "refused dates must not reach the RateQuote child");
    }
    const recovered = await chat.say("the second week of August");
    assert.equal(recovered.currentStep, "BookStep");
  });

  test("set_stay_dates stays on DatesStep, saying why, when the RateQuote child does not complete", async (t) => {
    const { conversation } = await openHotelApp(t, { scripts: { RateQuote: closedRateQuote } });
    const chat = conversation();
    await reachDatesStep(chat);
    const after = await assertStays(
      chat,
      "the second week of August",
      "DatesStep",
      "set_stay_dates",
      /couldn't price that stay: The rates service is closed today\./,
    );
    assert.equal(after.children.length, 1);
    const child = after.children[0]!;
    assert.deepEqual([child.flow, child.runStatus, child.currentStep], ["RateQuote", "running", "PriceStayStep"]);
    assert.deepEqual(child.steps["PriceStayStep"] ?? {}, {}, "the child saved a quote");
    assert.deepEqual(child.execution, []);
  });

  test("book_stay stays on BookStep for hotels that were not chosen, then books the chosen ones", async (t) => {
    const { conversation } = await openHotelApp(t);
    const chat = conversation();
    await reachBookStep(chat);
    await assertStays(
      chat,
      "Just book the Hawthorne House",
      "BookStep",
      "book_stay",
      /"the Hawthorne House" isn't among the hotels you chose\. You chose Pearl District Inn and Rose City Lodge/,
    );
    await assertStays(
      chat,
      "Book Rose City Lodge and The Ritz",
      "BookStep",
      "book_stay",
      /"The Ritz" isn't among the hotels you chose/,
    );
    const booked = await chat.say("Book the same hotels");
    assert.equal(booked.runStatus, "completed");
  });
});
