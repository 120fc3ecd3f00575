import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { formatAmount, formatMoney, parseMoney } from "../../../src/flows/invoice/money.ts";

function cents(text: string): number {
  const parsed = parseMoney(text);
  assert.ok(parsed.ok, `${text} should parse: ${parsed.ok ? "" : parsed.problem}`);
  return parsed.cents;
}

function problem(text: string): string {
  const parsed = parseMoney(text);
  assert.ok(!parsed.ok, `${text} should be refused, got ${parsed.ok ? parsed.cents : ""} cents`);
  return parsed.problem;
}

describe("parseMoney", () => {
  test("plain, dollar-signed and thousands-separated amounts are read into integer cents", () => {
    assert.equal(cents("12.50"), 1250);
    assert.equal(cents("$1,299.99"), 129999);
    assert.equal(cents("7"), 700);
    assert.equal(cents("12.5"), 1250);
    assert.equal(cents("0.01"), 1);
    assert.equal(cents("0"), 0);
    assert.equal(cents("  $ 3.10 "), 310);
    assert.equal(cents("1,000,000.00"), 100_000_000);
    assert.equal(cents("1000000"), 100_000_000);
  });

  test("amounts whose float product by 100 is inexact come out exact", () => {
    // 0.29 * 100 is 28.999999999999996 and 1.15 * 100 is 114.99999999999999 in floating point.
    assert.equal(cents("0.29"), 29);
    assert.equal(cents("1.15"), 115);
  });

  test("more than 2 decimals is refused, even when the extra digits are zeros", () => {
    assert.match(problem("12.505"), /^"12\.505" has more than 2 decimals/);
    assert.match(problem("$1.000"), /more than 2 decimals/);
  });

  test("negative amounts are refused in every spelling", () => {
    for (const text of ["-5", "-$5.00", "$-5", "$ -5", "(5.00)", "−5"])
      assert.match(problem(text), /is negative/, text);
  });

  test("text that is not an amount is refused, naming it", () => {
    for (const text of [
      "",
      "abc",
      "12.",
      ".50",
      "12,50",
      "1,29.99",
      "1.299,99",
      "12.50 USD",
      "1e3",
      "Infinity",
      "12 50",
      "$",
    ]) {
      assert.match(problem(text), /is not an amount of money/, JSON.stringify(text));
    }
    assert.equal(problem(" twelve "), '"twelve" is not an amount of money like 12.50 or $1,299.99');
  });

  test("the largest exactly countable amount is accepted and one cent more is refused", () => {
    assert.equal(cents("90071992547409.91"), Number.MAX_SAFE_INTEGER);
    assert.match(problem("90071992547409.92"), /is too large/);
  });
});

describe("formatMoney and formatAmount", () => {
  test("formatMoney writes dollars with a sign, thousands separators and 2 decimals", () => {
    assert.equal(formatMoney(0), "$0.00");
    assert.equal(formatMoney(5), "$0.05");
    assert.equal(formatMoney(1250), "$12.50");
    assert.equal(formatMoney(99999), "$999.99");
    assert.equal(formatMoney(129999), "$1,299.99");
    assert.equal(formatMoney(100_000_000), "$1,000,000.00");
  });

  test("formatAmount writes a plain decimal for machines", () => {
    assert.equal(formatAmount(0), "0.00");
    assert.equal(formatAmount(5), "0.05");
    assert.equal(formatAmount(129999), "1299.99");
  });

  test("formatting refuses what is not whole, non-negative cents", () => {
    for (const value of [-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])
      assert.throws(() => formatAmount(value), RangeError, String(value));
  });

  test("every formatted amount parses back to the same cents", () => {
    for (const value of [0, 1, 10, 99, 100, 101, 129999, 100_000_000, 123_456_789_012]) {
      assert.equal(cents(formatMoney(value)), value);
      assert.equal(cents(formatAmount(value)), value);
    }
  });
});
