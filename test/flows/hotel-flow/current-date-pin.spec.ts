import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test, type TestContext } from "node:test";
import moment from "moment";
import { hotelFlowScripts, resolveStay } from "../../../src/flows/hotel/index.ts";
import type { Scenario } from "../../../src/testing/index.ts";
import { openHotelApp, reachDatesStep, SCENARIO_PIN } from "./open-hotel-app.ts";

/** What the stored session says about a stay given in `words` under the environment `env`. */
async function stayUnder(t: TestContext, env: Record<string, string>, words: string) {
  const { conversation } = await openHotelApp(t, { env });
  const chat = conversation();
  await reachDatesStep(chat);
  const quoted = await chat.say(words);
  assert.equal(quoted.currentStep, "BookStep", quoted.response);
  const dates = (await chat.stored()).steps["DatesStep"]!;
  return { checkIn: dates["checkIn"], checkOut: dates["checkOut"], nights: dates["nights"], response: quoted.response };
}

describe("HotelFlow: HOTEL_FLOW_CURRENT_DATE sets the day relative dates resolve against", () => {
  const cases: [string, string, { checkIn: string; checkOut: string; nights: number }][] = [
    [SCENARIO_PIN, "the second week of August", { checkIn: "2027-08-09", checkOut: "2027-08-16", nights: 7 }],
    [
      "2028-07-15T00:00:00.000Z",
      "the second week of August",
      { checkIn: "2028-08-14", checkOut: "2028-08-21", nights: 7 },
    ],
    [SCENARIO_PIN, "next weekend", { checkIn: "2027-07-23", checkOut: "2027-07-25", nights: 2 }],
    ["2028-07-15T00:00:00.000Z", "next weekend", { checkIn: "2028-07-21", checkOut: "2028-07-23", nights: 2 }],
    [SCENARIO_PIN, "2027-08-09 to 2027-08-14", { checkIn: "2027-08-09", checkOut: "2027-08-14", nights: 5 }],
  ];
  for (const [pin, words, expected] of cases) {
    test(`with HOTEL_FLOW_CURRENT_DATE=${pin}, "${words}" is stored and quoted as ${expected.checkIn} to ${expected.checkOut}`, async (t) => {
      const stored = await stayUnder(t, { HOTEL_FLOW_CURRENT_DATE: pin }, words);
      assert.deepEqual({ checkIn: stored.checkIn, checkOut: stored.checkOut, nights: stored.nights }, expected);
      assert.match(
        stored.response,
        new RegExp(`check-in ${expected.checkIn} to check-out ${expected.checkOut} \\(${expected.nights} nights\\)`),
      );
    });
  }

  test("a later pin puts the same fixed dates in the past, and they are refused", async (t) => {
    const words = "2027-08-09 to 2027-08-14";
    const { conversation } = await openHotelApp(t, { env: { HOTEL_FLOW_CURRENT_DATE: "2027-09-01T00:00:00.000Z" } });
    const chat = conversation();
    await reachDatesStep(chat);
    const refused = await chat.say(words);
    assert.equal(refused.currentStep, "DatesStep");
    assert.match(refused.response, /check-in 2027-08-09 is in the past \(today is 2027-09-01\)/);
  });

  test("DatesStep's prompt tells the model the pinned day", async (t) => {
    const prompts: string[] = [];
    const hotelFlow = hotelFlowScripts["HotelFlow"]!;
    const { conversation } = await openHotelApp(t, {
      env: { HOTEL_FLOW_CURRENT_DATE: "2028-07-15T00:00:00.000Z" },
      scripts: { HotelFlow: (request) => (prompts.push(request.system), hotelFlow(request)) },
    });
    await reachDatesStep(conversation());
    assert.match(prompts.at(-1)!, /^Today is Saturday 2028-07-15\.$/m);
  });

  test("without a pin the flow resolves against the real day", async (t) => {
    const before = resolveStay("tomorrow for 2 nights", moment.utc());
    const stored = await stayUnder(t, {}, "tomorrow for 2 nights");
    const after = resolveStay("tomorrow for 2 nights", moment.utc());
    assert.ok(before.ok && after.ok);
    assert.ok(
      [before.stay.checkIn, after.stay.checkIn].includes(stored.checkIn as string),
      `stored ${String(stored.checkIn)}, real tomorrow ${before.stay.checkIn}`,
    );
  });

  test("the scenario pins 2027-07-15, and its asserted dates are what that pin resolves to", () => {
    const scenario = JSON.parse(readFileSync("scenarios/hotel-flow.scenario.json", "utf8")) as Scenario;
    assert.equal(scenario.env?.["HOTEL_FLOW_CURRENT_DATE"], SCENARIO_PIN);
    const turn = scenario.turns.find((candidate) => candidate.input === "the second week of August");
    assert.ok(turn && typeof turn.input === "string", "the scenario has no turn giving the second week of August");
    const resolved = resolveStay(turn.input, moment.utc(SCENARIO_PIN));
    assert.ok(resolved.ok);
    for (const asserted of [turn.expectState?.["DatesStep"], scenario.finalState?.["DatesStep"]]) {
      assert.deepEqual(
        { checkIn: asserted?.["checkIn"], checkOut: asserted?.["checkOut"], nights: asserted?.["nights"] },
        resolved.stay,
      );
    }
  });
});
