import assert from "node:assert/strict";
import { registeredFlows } from "../../src/flows/index.ts";
import { InvoiceFlow, renderInvoiceCsv } from "../../src/flows/invoice/index.ts";
import type { LineItemsState } from "../../src/flows/invoice/invoice-of.ts";
import { describeFlowScenarios, parseCsv, stepState } from "../../src/testing/index.ts";

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** The invoice's arithmetic, which must hold after every turn that stored lines, not only at the end. */
function assertArithmetic(lines: LineItemsState): void {
  const items = lines.items ?? [];
  for (const item of items) {
    for (const cents of [item.unitCents, item.netCents, item.taxCents, item.totalCents])
      assert.ok(Number.isSafeInteger(cents) && cents >= 0, `${cents} is whole cents`);
    assert.equal(item.netCents, item.quantity * item.unitCents, `${item.description}: net = quantity × unit price`);
    assert.equal(item.totalCents, item.netCents + item.taxCents, `${item.description}: total = net + tax`);
    // The exact tax is net × rate / 10000; the stored one is it rounded to the nearest cent.
    assert.ok(
      Math.abs(item.taxCents * 10_000 - item.netCents * item.taxRateBasisPoints) <= 5_000,
      `${item.description}: tax is the exact tax rounded`,
    );
  }
  if (items.length === 0) return;
  assert.equal(lines.subtotalCents, sum(items.map((item) => item.netCents)), "subtotal = the sum of the lines' net");
  assert.equal(lines.taxCents, sum(items.map((item) => item.taxCents)), "tax = the sum of the lines' rounded tax");
  assert.equal(lines.totalCents, (lines.subtotalCents ?? NaN) + (lines.taxCents ?? NaN), "total = subtotal + tax");
}

describeFlowScenarios(InvoiceFlow, {
  flows: registeredFlows,
  // The arithmetic is the flow's own invariant: every invoice scenario must keep it, after every turn.
  everyScenario: {
    eachTurn: (head) => {
      if (head.steps["LineItemsStep"]) assertArithmetic(stepState(head, "LineItemsStep"));
    },
  },
  scenarios: {
    "invoice-flow": {
      domain: (document) => {
        const lines = stepState(document, "LineItemsStep");
        assert.ok((lines.items ?? []).length > 0, "the issued invoice has lines");
        assertArithmetic(lines);
        const items = lines.items ?? [];

        const confirm = stepState(document, "ConfirmStep");
        assert.equal(document.runStatus, "completed");
        assert.match(
          confirm.invoiceNumber ?? "",
          /^INV-20270715-[0-9A-F]{6}$/,
          "the number carries the pinned issue date",
        );

        // The CSV agrees with the state: one row per line, then the totals.
        const csv = parseCsv(
          renderInvoiceCsv({
            steps: document.steps,
            runStatus: document.runStatus,
            currentStep: document.flow.currentStep,
          }),
        );
        assert.equal(csv.rows.length, items.length + 1);
        const totals = csv.rows.at(-1)!;
        assert.deepStrictEqual([totals["kind"], totals["invoice"]], ["total", confirm.invoiceNumber]);
        assert.equal(Math.round(Number(totals["total"]) * 100), lines.totalCents);
      },
    },
  },
});
