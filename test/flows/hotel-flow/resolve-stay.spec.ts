import assert from "node:assert/strict";
import { describe, test } from "node:test";
import moment from "moment";
import { MAX_NIGHTS, resolveStay, type StayProblem } from "../../../src/flows/hotel/resolve-stay.ts";

const THU_2027_07_15 = "2027-07-15T00:00:00.000Z";
const SAT_2028_07_15 = "2028-07-15T00:00:00.000Z";
const THU_2027_12_30 = "2027-12-30T09:30:00.000Z";
const SUN_2027_07_18 = "2027-07-18T12:00:00.000Z";

/** words, now, check-in, check-out, nights. */
const STAYS: [string, string, string, string, number][] = [
  ["the second week of August", THU_2027_07_15, "2027-08-09", "2027-08-16", 7],
  ["the second week of August", SAT_2028_07_15, "2028-08-14", "2028-08-21", 7],
  ["The first week of August", THU_2027_07_15, "2027-08-02", "2027-08-09", 7],
  ["the last week of August", THU_2027_07_15, "2027-08-30", "2027-09-06", 7],
  ["2nd week in September 2027", THU_2027_07_15, "2027-09-13", "2027-09-20", 7],
  ["the second week of July", THU_2027_07_15, "2028-07-10", "2028-07-17", 7],
  ["the first week of January", THU_2027_12_30, "2028-01-03", "2028-01-10", 7],
  ["Aug 9 to Aug 14", THU_2027_07_15, "2027-08-09", "2027-08-14", 5],
  ["Aug 9 to Aug 14", SAT_2028_07_15, "2028-08-09", "2028-08-14", 5],
  ["We'd like Aug 9 to Aug 14, please.", THU_2027_07_15, "2027-08-09", "2027-08-14", 5],
  ["August 9th – 14th", THU_2027_07_15, "2027-08-09", "2027-08-14", 5],
  ["9 to 14 August", THU_2027_07_15, "2027-08-09", "2027-08-14", 5],
  ["August 9th, 2027 through August 14th, 2027", THU_2027_07_15, "2027-08-09", "2027-08-14", 5],
  ["from 2027-08-09 to 2027-08-14", THU_2027_07_15, "2027-08-09", "2027-08-14", 5],
  ["Aug 9 for 3 nights", THU_2027_07_15, "2027-08-09", "2027-08-12", 3],
  ["Aug 1 for 30 nights", THU_2027_07_15, "2027-08-01", "2027-08-31", MAX_NIGHTS],
  ["tomorrow for a week", THU_2027_07_15, "2027-07-16", "2027-07-23", 7],
  ["today to tomorrow", THU_2027_07_15, "2027-07-15", "2027-07-16", 1],
  ["next weekend", THU_2027_07_15, "2027-07-23", "2027-07-25", 2],
  ["next weekend", SAT_2028_07_15, "2028-07-21", "2028-07-23", 2],
  ["next weekend", THU_2027_12_30, "2028-01-07", "2028-01-09", 2],
  ["this weekend", THU_2027_07_15, "2027-07-16", "2027-07-18", 2],
  ["this weekend", SAT_2028_07_15, "2028-07-15", "2028-07-16", 1],
  ["next week", THU_2027_07_15, "2027-07-19", "2027-07-26", 7],
  ["Dec 28 to Jan 3", THU_2027_07_15, "2027-12-28", "2028-01-03", 6],
  ["Jan 3 to Jan 5", THU_2027_12_30, "2028-01-03", "2028-01-05", 2],
  ["July 10 to July 12", THU_2027_07_15, "2028-07-10", "2028-07-12", 2],
];

/** words, now, problem, what the reason must say. */
const REFUSED: [string, string, StayProblem, RegExp][] = [
  [
    "July 1, 2027 to July 4, 2027",
    THU_2027_07_15,
    "past",
    /^check-in 2027-07-01 is in the past \(today is 2027-07-15\)$/,
  ],
  ["2027-07-14 to 2027-07-16", THU_2027_07_15, "past", /check-in 2027-07-14 is in the past/],
  ["Aug 14 to Aug 9", THU_2027_07_15, "end_before_start", /^check-out 2027-08-09 is not after check-in 2027-08-14$/],
  ["Aug 9 to Aug 9", THU_2027_07_15, "end_before_start", /not after check-in 2027-08-09/],
  ["this weekend", SUN_2027_07_18, "end_before_start", /check-out 2027-07-18 is not after check-in 2027-07-18/],
  ["Aug 1 to Sep 5", THU_2027_07_15, "too_long", /^2027-08-01 to 2027-09-05 is 35 nights, over the 30-night limit$/],
  ["Aug 1 for 31 nights", THU_2027_07_15, "too_long", /31 nights/],
  ["Feb 30 to Mar 2", THU_2027_07_15, "invalid_date", /"feb 30" is not a calendar date/],
  ["the fifth week of September", THU_2027_07_15, "invalid_date", /September 2028 has no fifth week/],
  ["Aug 9", THU_2027_07_15, "unrecognized", /only a check-in day \(2027-08-09\) was given/],
  ["sometime soon", THU_2027_07_15, "unrecognized", /no stay dates could be read/],
];

describe("resolveStay", () => {
  for (const [words, now, checkIn, checkOut, nights] of STAYS) {
    test(`"${words}" on ${now.slice(0, 10)} is ${checkIn} to ${checkOut}`, () => {
      assert.deepEqual(resolveStay(words, moment.utc(now)), { ok: true, stay: { checkIn, checkOut, nights } });
    });
  }

  for (const [words, now, problem, reason] of REFUSED) {
    test(`"${words}" on ${now.slice(0, 10)} is refused as ${problem}`, () => {
      const resolution = resolveStay(words, moment.utc(now));
      assert.ok(!resolution.ok, `resolved to ${JSON.stringify(resolution)}`);
      assert.equal(resolution.problem, problem);
      assert.match(resolution.reason, reason);
    });
  }

  test("the same words resolve to other dates when now is another day", () => {
    const words = "the second week of August";
    const first = resolveStay(words, moment.utc(THU_2027_07_15));
    const second = resolveStay(words, moment.utc(SAT_2028_07_15));
    assert.ok(first.ok && second.ok);
    assert.notEqual(first.stay.checkIn, second.stay.checkIn);
  });

  test("today is the UTC calendar day of now, whatever offset now carries", () => {
    const evening = moment.parseZone("2027-07-15T20:00:00-07:00");
    assert.deepEqual(resolveStay("tomorrow for 2 nights", evening), {
      ok: true,
      stay: { checkIn: "2027-07-17", checkOut: "2027-07-19", nights: 2 },
    });
    assert.equal(evening.format(), "2027-07-15T20:00:00-07:00", "resolveStay must not change the moment it is given");
  });
});
