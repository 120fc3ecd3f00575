import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { ExecutionEntry, Script, SessionDocument } from "../../../src/engine/index.ts";
import { hotelFlowScripts } from "../../../src/flows/hotel/index.ts";
import { openHotelApp, reachBookStep, reachDatesStep, type Conversation } from "./open-hotel-app.ts";

interface PriceArgs {
  hotels: string[];
  checkIn: string;
  checkOut: string;
}

/** RateQuote's own script, with the arguments of its price_stay call changed by `change`. */
function changedRateQuote(change: (args: PriceArgs) => PriceArgs): Script {
  return (request) => {
    const reply = hotelFlowScripts["RateQuote"]!(request);
    if (!reply?.toolCalls.length) return reply;
    return { ...reply, toolCalls: reply.toolCalls.map((call) => ({ ...call, arguments: JSON.stringify(change(JSON.parse(call.arguments) as PriceArgs)) })) };
  };
}

function lastTool(document: SessionDocument): ExecutionEntry | undefined {
  return document.execution.filter((entry) => entry.kind === "tool").at(-1);
}

/**
 * Sends `input` and checks the turn was applied but the tool answered stay: the cursor did not
 * move, the run goes on, and the step saved nothing.
 */
async function assertStays(conversation: Conversation, input: string, step: string, tool: string, response: RegExp): Promise<SessionDocument> {
  const before = await conversation.stored();
  const outcome = await conversation.say(input);
  assert.equal(outcome.currentStep, step, `"${input}" moved the cursor: ${outcome.response}`);
  assert.equal(outcome.runStatus, "running");
  assert.match(outcome.response, response);
  const after = await conversation.stored();
  assert.equal(after.turns, before.turns + 1);
  assert.equal(after.flow.currentStep, step);
  assert.deepEqual(after.steps[step] ?? {}, {}, `${step} saved state for "${input}"`);
  assert.deepEqual(lastTool(after), { seq: after.execution.length, turn: after.turns, step, kind: "tool", name: tool, outcome: "stay" });
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

  const childRefusals: [string, (args: PriceArgs) => PriceArgs, RegExp][] = [
    ["an unknown hotel", (args) => ({ ...args, hotels: ["Rose City Motel"] }), /"Rose City Motel" is not in the catalogue/],
    ["an impossible day", (args) => ({ ...args, checkIn: "2027-02-30" }), /"2027-02-30" is not a calendar day/],
    ["a check-out on the check-in day", (args) => ({ ...args, checkOut: args.checkIn }), /Check-out 2027-08-09 is not after check-in 2027-08-09/],
  ];
  for (const [what, change, response] of childRefusals) {
    test(`price_stay in the RateQuote child stays on ${what}, and set_stay_dates stays on DatesStep`, async (t) => {
      const { conversation } = await openHotelApp(t, { scripts: { RateQuote: changedRateQuote(change) } });
      const chat = conversation();
      await reachDatesStep(chat);
      const after = await assertStays(chat, "the second week of August", "DatesStep", "set_stay_dates", response);
      assert.equal(after.children.length, 1);
      const child = after.children[0]!;
      assert.equal(child.flow, "RateQuote");
      assert.equal(child.runStatus, "running", "the child must not complete");
      assert.equal(child.currentStep, "PriceStayStep");
      assert.deepEqual(child.steps["PriceStayStep"] ?? {}, {}, "the child saved a quote");
      assert.deepEqual(
        child.execution.map((entry) => [entry.name, entry.outcome]),
        [["price_stay", "stay"]],
      );
    });
  }

  test("set_stay_dates stays on DatesStep when the child quotes another stay than the one asked for", async (t) => {
    const { conversation } = await openHotelApp(t, { scripts: { RateQuote: changedRateQuote((args) => ({ ...args, hotels: args.hotels.slice(0, 1) })) } });
    const chat = conversation();
    await reachDatesStep(chat);
    const after = await assertStays(chat, "the second week of August", "DatesStep", "set_stay_dates", /the quote did not cover the hotels and days asked for/);
    assert.equal(after.children[0]?.runStatus, "completed");
  });

  test("book_stay stays on BookStep for hotels that were not chosen, then books the chosen ones", async (t) => {
    const { conversation } = await openHotelApp(t);
    const chat = conversation();
    await reachBookStep(chat);
    await assertStays(chat, "Just book the Hawthorne House", "BookStep", "book_stay", /"the Hawthorne House" isn't among the hotels you chose\. You chose Pearl District Inn and Rose City Lodge/);
    await assertStays(chat, "Book Rose City Lodge and The Ritz", "BookStep", "book_stay", /"The Ritz" isn't among the hotels you chose/);
    const booked = await chat.say("Book the same hotels");
    assert.equal(booked.runStatus, "completed");
  });
});
