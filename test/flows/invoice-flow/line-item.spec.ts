import assert from "node:assert/strict";
import { test } from "node:test";
import { parseLineItem, type LineItemInput } from "../../../src/flows/invoice/line-item.ts";

const widgets: LineItemInput = { description: "widgets", quantity: "3", unit_price: "$12.50", tax_rate: "8.25%" };

function problems(input: Partial<LineItemInput>): string[] {
  const parsed = parseLineItem({ ...widgets, ...input });
  assert.ok(!parsed.ok, `${JSON.stringify(input)} should be refused`);
  return parsed.problems;
}

test("a valid line is parsed into integers with its amounts computed", () => {
  assert.deepStrictEqual(parseLineItem(widgets), {
    ok: true,
    item: {
      description: "widgets",
      quantity: 3,
      unitCents: 1250,
      taxRateBasisPoints: 825,
      netCents: 3750,
      taxCents: 309,
      totalCents: 4059,
    },
  });
});

test("the description keeps commas and quotes but its whitespace, line breaks included, becomes single spaces", () => {
  const parsed = parseLineItem({ ...widgets, description: '  Support plan, "Gold"\n  tier ' });
  assert.ok(parsed.ok);
  assert.equal(parsed.item.description, 'Support plan, "Gold" tier');
});

test("a blank description is refused", () => {
  assert.deepStrictEqual(problems({ description: " \n " }), ["the description is blank"]);
});

test("a quantity must be a whole number from 1 to 100,000", () => {
  assert.deepStrictEqual(problems({ quantity: "0" }), ["the quantity 0 is not between 1 and 100,000"]);
  assert.deepStrictEqual(problems({ quantity: "100001" }), ["the quantity 100001 is not between 1 and 100,000"]);
  for (const quantity of ["2.5", "three", "-3", "+3", "3 boxes", ""]) {
    assert.deepStrictEqual(problems({ quantity }), [`the quantity "${quantity}" is not a whole number`], quantity);
  }
  const largest = parseLineItem({ ...widgets, quantity: " 100000 " });
  assert.ok(largest.ok && largest.item.quantity === 100_000);
});

test("the unit price goes through parseMoney and is at most $1,000,000.00", () => {
  assert.deepStrictEqual(problems({ unit_price: "$12.505" }), [
    'the unit price "$12.505" has more than 2 decimals; amounts are in whole cents',
  ]);
  assert.deepStrictEqual(problems({ unit_price: "-5" }), [
    'the unit price "-5" is negative; amounts must be zero or more',
  ]);
  assert.deepStrictEqual(problems({ unit_price: "$1,000,000.01" }), [
    "the unit price $1,000,000.01 is over $1,000,000.00",
  ]);
  assert.ok(parseLineItem({ ...widgets, unit_price: "$1,000,000.00" }).ok);
  assert.ok(parseLineItem({ ...widgets, unit_price: "0" }).ok, "a free line is allowed");
});

test("the tax rate goes through parseTaxRate", () => {
  assert.deepStrictEqual(problems({ tax_rate: "8.255%" }), [
    'the tax rate "8.255%" has more than 2 decimals; give it like 8.25%',
  ]);
});

test("every problem of a line is listed at once, in the order of its parts", () => {
  assert.deepStrictEqual(problems({ description: "", quantity: "0", unit_price: "abc", tax_rate: "-1%" }), [
    "the description is blank",
    "the quantity 0 is not between 1 and 100,000",
    'the unit price "abc" is not an amount of money like 12.50 or $1,299.99',
    'the tax rate "-1%" is negative',
  ]);
});
