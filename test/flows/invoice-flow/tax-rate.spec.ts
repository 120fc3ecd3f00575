import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { formatTaxRate, parseTaxRate } from "../../../src/flows/invoice/tax-rate.ts";

function basisPoints(text: string): number {
  const parsed = parseTaxRate(text);
  assert.ok(parsed.ok, `${text} should parse: ${parsed.ok ? "" : parsed.problem}`);
  return parsed.basisPoints;
}

function problem(text: string): string {
  const parsed = parseTaxRate(text);
  assert.ok(!parsed.ok, `${text} should be refused, got ${parsed.ok ? parsed.basisPoints : ""} basis points`);
  return parsed.problem;
}

describe("parseTaxRate", () => {
  test("percentages with up to 2 decimals, with or without the sign, are read into basis points", () => {
    assert.equal(basisPoints("8.25%"), 825);
    assert.equal(basisPoints("8.25"), 825);
    assert.equal(basisPoints(" 7.5 % "), 750);
    assert.equal(basisPoints("0.05%"), 5);
    assert.equal(basisPoints("0%"), 0);
    assert.equal(basisPoints("100%"), 10_000);
  });

  test("more than 2 decimals is refused, so 0.0825 is not silently taken for 8.25%", () => {
    assert.equal(problem("8.255%"), 'the tax rate "8.255%" has more than 2 decimals; give it like 8.25%');
    assert.match(problem("0.0825"), /more than 2 decimals/);
  });

  test("negative rates and rates over 100% are refused", () => {
    assert.match(problem("-1%"), /is negative/);
    assert.match(problem("100.01%"), /is over 100%/);
    assert.match(problem("250%"), /is over 100%/);
  });

  test("text that is not a percentage is refused", () => {
    for (const text of ["", "%", "eight", "8,25%", "8.25%%", "1000%", "no"])
      assert.match(problem(text), /is not a percentage/, JSON.stringify(text));
  });
});

describe("formatTaxRate", () => {
  test("writes the rate with only the decimals it needs", () => {
    assert.equal(formatTaxRate(825), "8.25%");
    assert.equal(formatTaxRate(750), "7.5%");
    assert.equal(formatTaxRate(800), "8%");
    assert.equal(formatTaxRate(5), "0.05%");
    assert.equal(formatTaxRate(0), "0%");
    assert.equal(formatTaxRate(10_000), "100%");
  });

  test("every formatted rate parses back to the same basis points", () => {
    for (const value of [0, 1, 10, 99, 100, 750, 825, 1025, 9999, 10_000])
      assert.equal(basisPoints(formatTaxRate(value)), value);
  });
});
