import assert from "node:assert/strict";
import { test } from "node:test";
import { formatCents } from "../../../src/flows/hotel/format-cents.ts";

test("formatCents writes cents as dollars with two decimals and thousands grouped", () => {
  const cases: [number, string][] = [
    [0, "$0.00"],
    [5, "$0.05"],
    [14999, "$149.99"],
    [18900, "$189.00"],
    [237293, "$2,372.93"],
    [123456789, "$1,234,567.89"],
    [-104993, "-$1,049.93"],
  ];
  for (const [cents, text] of cases) assert.equal(formatCents(cents), text, `${cents} cents`);
});
