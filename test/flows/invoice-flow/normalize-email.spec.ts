import assert from "node:assert/strict";
import { test } from "node:test";
import { normalizeEmail } from "../../../src/flows/invoice/normalize-email.ts";

test("an email address is trimmed and its domain lower-cased, its local part kept as given", () => {
  assert.equal(normalizeEmail("ap@acme.example"), "ap@acme.example");
  assert.equal(
    normalizeEmail("  Accounts.Payable+inv@Billing.ACME.example "),
    "Accounts.Payable+inv@billing.acme.example",
  );
});

test("text without one @, a local part and a dotted domain is not an email address", () => {
  for (const text of [
    "ap-at-acme.example",
    "ap@acme",
    "@acme.example",
    "ap@@acme.example",
    "a p@acme.example",
    "ap@acme..example",
    "ap@acme.e",
    "Acme <ap@acme.example>",
    "",
  ]) {
    assert.equal(normalizeEmail(text), undefined, text);
  }
});

test("an address longer than 254 characters is refused", () => {
  // 64 + 1 + 181 + 8 = 254 characters.
  assert.ok(normalizeEmail(`${"a".repeat(64)}@${"b".repeat(181)}.example`));
  assert.equal(normalizeEmail(`${"a".repeat(64)}@${"b".repeat(182)}.example`), undefined);
});
