import assert from "node:assert/strict";
import { test } from "node:test";
import { invoiceNumber } from "../../../src/flows/invoice/invoice-number.ts";
import { parseLineItem, type LineItem } from "../../../src/flows/invoice/line-item.ts";

function line(quantity: string): LineItem {
  const parsed = parseLineItem({ description: "widgets", quantity, unit_price: "$12.50", tax_rate: "8.25%" });
  assert.ok(parsed.ok);
  return parsed.item;
}

const acme = { name: "Acme, Inc.", email: "ap@acme.example" };

test("the number is INV-, the issue date, and 6 hex digits, the same every time for the same invoice", () => {
  const number = invoiceNumber("2027-07-15", acme, [line("3")]);
  assert.match(number, /^INV-20270715-[0-9A-F]{6}$/);
  assert.equal(invoiceNumber("2027-07-15", acme, [line("3")]), number);
});

test("another date, customer or line gives another number", () => {
  const number = invoiceNumber("2027-07-15", acme, [line("3")]);
  assert.equal(invoiceNumber("2027-07-16", acme, [line("3")]), number.replace("20270715", "20270716"));
  assert.notEqual(invoiceNumber("2027-07-15", { ...acme, email: "billing@acme.example" }, [line("3")]), number);
  assert.notEqual(invoiceNumber("2027-07-15", acme, [line("4")]), number);
  assert.notEqual(invoiceNumber("2027-07-15", acme, [line("3"), line("3")]), number);
});

test("an issue date that is not YYYY-MM-DD is refused", () => {
  assert.throws(() => invoiceNumber("15/07/2027", acme, [line("3")]), RangeError);
});
