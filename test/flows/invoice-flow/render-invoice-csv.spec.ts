import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { csvDocument, csvField } from "../../../src/flows/invoice/csv-document.ts";
import { lineAmounts } from "../../../src/flows/invoice/invoice-math.ts";
import type { LineItem } from "../../../src/flows/invoice/line-item.ts";
import { INVOICE_CSV_COLUMNS, renderInvoiceCsv } from "../../../src/flows/invoice/render-invoice-csv.ts";
import type { StepStates } from "../../../src/engine/index.ts";
import { parseCsv } from "../../../src/testing/index.ts";

function item(description: string, quantity: number, unitCents: number, taxRateBasisPoints: number): LineItem {
  return {
    description,
    quantity,
    unitCents,
    taxRateBasisPoints,
    ...lineAmounts(quantity, unitCents, taxRateBasisPoints),
  };
}

const HEADER = "invoice,customer,kind,line,description,quantity,unit_price,tax_rate,net,tax,total\r\n";

function render(steps: StepStates): string {
  return renderInvoiceCsv({ steps, runStatus: "running", currentStep: "LineItemsStep" });
}

describe("csvField and csvDocument", () => {
  test("a field is quoted only when it holds a comma, a quote or a line break, and its quotes are doubled", () => {
    assert.equal(csvField("widgets"), "widgets");
    assert.equal(csvField(""), "");
    assert.equal(csvField(" padded "), " padded ");
    assert.equal(csvField("Acme, Inc."), '"Acme, Inc."');
    assert.equal(csvField('the "Gold" tier'), '"the ""Gold"" tier"');
    assert.equal(csvField("two\nlines"), '"two\nlines"');
    assert.equal(csvField("carriage\rreturn"), '"carriage\rreturn"');
  });

  test("every record ends with CRLF, the last one included", () => {
    assert.equal(
      csvDocument([
        ["a", "b"],
        ["1", "2"],
      ]),
      "a,b\r\n1,2\r\n",
    );
    assert.equal(csvDocument([]), "");
  });

  test("any fields survive a round trip through an RFC 4180 parser", () => {
    const nasty = ['"', '""', ",", "\r\n", 'a "b", c\nd', "trailing,", " "];
    const parsed = parseCsv(csvDocument([nasty.map((_, index) => `c${index}`), nasty]));
    assert.deepStrictEqual(Object.values(parsed.rows[0]!), nasty);
  });
});

describe("renderInvoiceCsv", () => {
  const steps: StepStates = {
    CustomerStep: { name: "Acme, Inc.", email: "ap@acme.example" },
    LineItemsStep: { items: [item('Support plan, "Gold" tier', 1, 129999, 0), item("stickers\nround", 10, 25, 500)] },
    ConfirmStep: { invoiceNumber: "INV-20270715-A71027", issuedOn: "2027-07-15", dueOn: "2027-08-14" },
  };

  test("an issued invoice is a header, one item row per line and a total row, quoted where needed", () => {
    assert.equal(
      render(steps),
      HEADER +
        'INV-20270715-A71027,"Acme, Inc.",item,1,"Support plan, ""Gold"" tier",1,1299.99,0%,1299.99,0.00,1299.99\r\n' +
        'INV-20270715-A71027,"Acme, Inc.",item,2,"stickers\nround",10,0.25,5%,2.50,0.13,2.63\r\n' +
        'INV-20270715-A71027,"Acme, Inc.",total,,,,,,1302.49,0.13,1302.62\r\n',
    );
  });

  test("parsed back, the rows hold the description with its comma, quotes and line break exactly", () => {
    const csv = parseCsv(render(steps));
    assert.deepStrictEqual(csv.columns, [...INVOICE_CSV_COLUMNS]);
    assert.deepStrictEqual(
      csv.rows.map((row) => [row["kind"], row["description"], row["total"]]),
      [
        ["item", 'Support plan, "Gold" tier', "1299.99"],
        ["item", "stickers\nround", "2.63"],
        ["total", "", "1302.62"],
      ],
    );
  });

  test("the total row is computed from the lines, whatever totals the state holds", () => {
    const stale: StepStates = {
      ...steps,
      LineItemsStep: { ...steps["LineItemsStep"], subtotalCents: 1, taxCents: 1, totalCents: 2 },
    };
    assert.deepStrictEqual(parseCsv(render(stale)).rows.at(-1), parseCsv(render(steps)).rows.at(-1));
  });

  test("a draft, not yet issued, has an empty invoice column", () => {
    const draft = parseCsv(render({ CustomerStep: steps["CustomerStep"]!, LineItemsStep: steps["LineItemsStep"]! }));
    assert.deepStrictEqual(
      draft.rows.map((row) => row["invoice"]),
      ["", "", ""],
    );
  });

  test("a session with no customer and no lines renders the header and a zero total row", () => {
    assert.equal(render({}), `${HEADER},,total,,,,,,0.00,0.00,0.00\r\n`);
  });
});
